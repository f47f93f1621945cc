/* lib1.c - one of the two libraries of tests/merge/wpp/main.c. */
static __attribute__((noinline)) int pick1(int i) { return i % 3 ? i % 2 : 5; }

int work1(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += pick1(i);
    return s;
}
