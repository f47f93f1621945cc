/* tests/tpp-stream.t: runs branches.c (its main renamed branches_main),
 * forks, and runs it again in the child.  With PATHPROF_ACCUMULATE=1 the
 * child counts only what it runs after the fork, the in-memory counts of
 * TPP's obvious paths included, so the profile holds exactly two runs. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int branches_main(int argc, char **argv);

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: forkrun INPUT\n");
        return 2;
    }
    branches_main(argc, argv);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("forkrun: fork");
        return 1;
    }
    if (pid == 0) {
        branches_main(argc, argv);
        return 0;
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "forkrun: the child failed\n");
        return 1;
    }
    return 0;
}
