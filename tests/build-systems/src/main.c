/* main.c - `calc N` prints calc_sum(N). */
#include <stdio.h>
#include <stdlib.h>

#include "calc.h"

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    printf("%ld\n", calc_sum(n));
    return 0;
}
