#include "copies.h"
int run_b(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += shape(i * 7);
    return s;
}
