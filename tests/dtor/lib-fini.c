/* tests/dtor-order.t: a shared library whose own destructor runs its
 * instrumented code, as libxml2's xmlDestructor (parser.c) calls
 * xmlCleanupParser at exit. lib_fini is in this TU, linked first, and
 * calls lib_tidy in lib-work.c: both TUs' pathprof destructors must run
 * after it, in the library linked to the program and in one dlopen'ed
 * and dlclose'd. */
int lib_tidy(int n);
volatile int lib_fini_sink;

__attribute__((destructor)) static void lib_fini(void)
{
    int s = lib_tidy(10);
    if (s > 0)
        lib_fini_sink = s;
    else
        lib_fini_sink = -s;
}
