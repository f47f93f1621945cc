/* perfctl/programs/tcc-error.c - the last file perfctl/programs/tcc.sh
 * gives tcc: warnings first (tcc_warning returns), then a syntax error
 * deep in the parser's recursion, in a macro argument, a statement
 * expression, a ternary and nested parentheses, in a switch in a loop:
 * tcc_error longjmps from there back to tcc_compile's setjmp, unwinding
 * every frame between, and tcc stops with exit status 1. */
#include <stdio.h>
#include <string.h>

#define WRAP(x) ((x) + 1)
#define TWICE(f, x) f(f(x))

struct pt { int x, y; };

int warned(int *p)
{
    char *c = p;                    /* incompatible pointer type */
    not_declared_anywhere(c, 3);    /* implicit declaration */
    return strlen(c) + TWICE(WRAP, 2);
}

static const char *names[] = { "zero", "one", "two", 0 };

int deep(int a, int b)
{
    struct pt q[2] = { { 1, 2 }, { 3, 4 } };
    while (a-- > 0) {
        if (b & 1) {
            switch (a) {
            case 0:
                b += (int)strlen(names[a & 1]);
                break;
            case 1:
                b = WRAP(({ int t = q[a & 1].x; t * (b + (a ? (q[0].y - (t << 2)) : (3 * (b ^ / a)))); }));
                break;
            default:
                b--;
            }
        }
    }
    return b;
}

int never_reached(void)
{
    return deep(3, 4);
}
