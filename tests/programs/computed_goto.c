/* Computed goto (&&label): a register-machine interpreter.
 * Program: SETA 0; SETN 10; L: ADD; DEC; JNZ L; HALT  (a = 10+9+...+1)
 * Every `goto *` leaves through GCC's factored dispatch block, whose
 * abnormal edges cannot carry probes: a path ends at the dispatch and the
 * next one starts at a label.  Executions: SETA 1, SETN 1, ADD 10, DEC 10,
 * JNZ 10 (taken 9, JT; not taken 1, JF), HALT 1; plus the path from the
 * entry to the first dispatch.  Whether the plugin ends the handlers' paths
 * at the dispatch block or at the edge into it (then the dispatch is a
 * path of its own), every one of the 33 dispatches ends one path at the
 * computed goto (|). */
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))
volatile int sink;

enum { SETA, SETN, ADD, DEC, JNZ, HALT };

NOINLINE long interp(const int *code)
{
    static void *const tab[] = { &&seta, &&setn, &&add, &&dec, &&jnz, &&halt };
    long a = 0, n = 0;
    int pc = 0;
    goto *tab[code[pc]];
seta:
    sink += 1;               /*@SETA*/
    a = code[pc + 1];
    pc += 2;
    goto *tab[code[pc]];
setn:
    sink += 2;               /*@SETN*/
    n = code[pc + 1];
    pc += 2;
    goto *tab[code[pc]];
add:
    sink += 3;               /*@ADD*/
    a += n;
    pc += 1;
    goto *tab[code[pc]];
dec:
    sink += 4;               /*@DEC*/
    n -= 1;
    pc += 1;
    goto *tab[code[pc]];
jnz:
    if (n != 0) {
        sink += 5;           /*@JT*/
        pc = code[pc + 1];
    } else {
        sink += 6;           /*@JF*/
        pc += 2;
    }
    goto *tab[code[pc]];
halt:
    sink += 7;               /*@HALT*/
    return a;
}

int main(void)
{
    static const int prog[] = { SETA, 0, SETN, 10, ADD, DEC, JNZ, 4, HALT };
    printf("%ld\n", interp(prog));
    return 0;
}
//! expect interp paths(SETA) = 1
//! expect interp paths(SETN) = 1
//! expect interp paths(ADD) = 10
//! expect interp paths(DEC) = 10
//! expect interp paths(JT) = 9
//! expect interp paths(JF) = 1
//! expect interp paths(HALT $) = 1
//! expect interp paths(^) = 1
//! expect interp paths($) = 1
//! expect interp paths(|) = 1 + 1 + 1 + 10 + 10 + 10
//! expect interp distinct(ADD) = 1
//! expect interp distinct(JT) = 1
