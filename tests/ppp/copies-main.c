#include <stdio.h>
#include <string.h>
int run_a(int n);
int run_b(int n);
int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "ab";
    long s = 0;
    if (strchr(which, 'a'))
        s += run_a(1000);
    if (strchr(which, 'b'))
        s += run_b(700);
    printf("%ld\n", s);
    return 0;
}
