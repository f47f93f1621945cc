/* gnu-inline-lib.c - the out-of-line copy of gnu-inline.c's step (the
   "library", built without pathprof). tests/cxx-extern-template.t. */
int step(int x);
int step(int x)
{
    if (x % 3 == 0)
        return x * 2;
    return -x;
}
