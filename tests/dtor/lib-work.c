/* tests/dtor-order.t: the library's work, called by the program and by
 * the library's destructor (lib-fini.c). */
int lib_step(int i)
{
    if (i % 3 == 0)
        return i / 3;
    return i + 1;
}

int lib_tidy(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (i & 1)
            s += i;
        else
            s -= 1;
    }
    return s;
}

/* the destructor's own code in this TU: a second library destructor */
__attribute__((destructor)) static void work_fini(void)
{
    (void)lib_tidy(3);
}
