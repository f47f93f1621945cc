/* demo.c - the example `make demo` profiles: a tiny calculator language.
 *
 * It generates a deterministic program text (assignments, prints, comments,
 * a few deliberate errors), then tokenizes, parses and evaluates it with a
 * recursive-descent interpreter. Loops, a switch over characters, early
 * returns on errors and recursion give the path profile something to show:
 * the hot paths are the tokenizer's identifier and number loops and the
 * parser's "no more operators" exits.
 *
 *   usage: demo [STATEMENTS]     (default 200000)
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum tok { T_END, T_NUM, T_VAR, T_OP, T_LPAREN, T_RPAREN, T_ASSIGN,
           T_SEMI, T_PRINT, T_ERROR, T_NKINDS };

static const char *const tok_name[T_NKINDS] = {
    "end", "number", "variable", "operator", "(", ")", "=", ";", "print", "error"
};

struct lexer {
    const char *p;
    enum tok kind;
    long num;        /* T_NUM */
    int var;         /* T_VAR: 0..25 */
    char op;         /* T_OP */
    unsigned long count[T_NKINDS];
};

struct interp {
    struct lexer lx;
    long vars[26];
    const char *error; /* first error of the current statement */
    unsigned long printed, errors, statements;
    unsigned long checksum;
};

/* ---- program generator (fixed seed: the output never changes) ---- */

static unsigned long rng = 88172645463325252UL;
static unsigned next_rand(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static void gen_expr(char **out, int depth)
{
    switch (depth > 3 ? next_rand(2) : next_rand(6)) {
    case 0:
        *out += sprintf(*out, "%u", next_rand(1000));
        return;
    case 1:
        *out += sprintf(*out, "%c", 'a' + next_rand(8));
        return;
    case 2:
        *out += sprintf(*out, "(");
        gen_expr(out, depth + 1);
        *out += sprintf(*out, ")");
        return;
    case 3:
        *out += sprintf(*out, "-");
        gen_expr(out, depth + 1);
        return;
    default:
        gen_expr(out, depth + 1);
        *out += sprintf(*out, " %c ", "+-*/%+-"[next_rand(7)]);
        gen_expr(out, depth + 1);
        return;
    }
}

static char *gen_program(unsigned statements)
{
    char *text = malloc((size_t)statements * 256 + 1), *out = text;
    if (!text) {
        perror("demo: malloc");
        exit(1);
    }
    for (unsigned i = 0; i < statements; i++) {
        unsigned r = next_rand(100);
        if (r < 5) {
            out += sprintf(out, "# statement %u\n", i);
            continue;
        }
        if (r < 20)
            out += sprintf(out, "print ");
        else
            out += sprintf(out, "%c = ", 'a' + next_rand(8));
        gen_expr(&out, 0);
        out += sprintf(out, r == 99 ? " $;\n" : ";\n"); /* 1%: a lexical error */
    }
    *out = '\0';
    return text;
}

/* ---- tokenizer ---- */

static void next_token(struct lexer *lx)
{
    for (;;) {
        char c = *lx->p;
        switch (c) {
        case '\0':
            lx->kind = T_END;
            goto done;
        case ' ': case '\t': case '\n':
            lx->p++;
            continue;
        case '#':
            while (*lx->p && *lx->p != '\n')
                lx->p++;
            continue;
        case '+': case '-': case '*': case '/': case '%':
            lx->kind = T_OP;
            lx->op = c;
            lx->p++;
            goto done;
        case '(': lx->kind = T_LPAREN; lx->p++; goto done;
        case ')': lx->kind = T_RPAREN; lx->p++; goto done;
        case '=': lx->kind = T_ASSIGN; lx->p++; goto done;
        case ';': lx->kind = T_SEMI; lx->p++; goto done;
        default:
            break;
        }
        if (isdigit((unsigned char)c)) {
            long v = 0;
            while (isdigit((unsigned char)*lx->p))
                v = v * 10 + (*lx->p++ - '0');
            lx->kind = T_NUM;
            lx->num = v;
        } else if (isalpha((unsigned char)c)) {
            const char *start = lx->p;
            while (isalpha((unsigned char)*lx->p))
                lx->p++;
            if (lx->p - start == 5 && memcmp(start, "print", 5) == 0) {
                lx->kind = T_PRINT;
            } else if (lx->p - start == 1 && c >= 'a' && c <= 'z') {
                lx->kind = T_VAR;
                lx->var = c - 'a';
            } else {
                lx->kind = T_ERROR;
            }
        } else {
            lx->kind = T_ERROR;
            lx->p++;
        }
        goto done;
    }
done:
    lx->count[lx->kind]++;
}

/* ---- parser and evaluator ---- */

static long expr(struct interp *in);

static long fail(struct interp *in, const char *why)
{
    if (!in->error)
        in->error = why;
    return 0;
}

static long factor(struct interp *in)
{
    struct lexer *lx = &in->lx;
    long v;
    switch (lx->kind) {
    case T_NUM:
        v = lx->num;
        next_token(lx);
        return v;
    case T_VAR:
        v = in->vars[lx->var];
        next_token(lx);
        return v;
    case T_LPAREN:
        next_token(lx);
        v = expr(in);
        if (lx->kind != T_RPAREN)
            return fail(in, "missing )");
        next_token(lx);
        return v;
    case T_OP:
        if (lx->op == '-') {
            next_token(lx);
            return -factor(in);
        }
        return fail(in, "unexpected operator");
    default:
        return fail(in, "unexpected token");
    }
}

static long term(struct interp *in)
{
    struct lexer *lx = &in->lx;
    long v = factor(in);
    while (!in->error && lx->kind == T_OP &&
           (lx->op == '*' || lx->op == '/' || lx->op == '%')) {
        char op = lx->op;
        next_token(lx);
        long r = factor(in);
        if (op == '*') {
            v = v * r % 1000003; /* |v|, |r| < 1000003: no overflow */
        } else if (r == 0) {
            return fail(in, "division by zero");
        } else if (op == '/') {
            v /= r;
        } else {
            v %= r;
        }
    }
    return v;
}

static long expr(struct interp *in)
{
    struct lexer *lx = &in->lx;
    long v = term(in);
    while (!in->error && lx->kind == T_OP && (lx->op == '+' || lx->op == '-')) {
        char op = lx->op;
        next_token(lx);
        long r = term(in);
        v = (op == '+' ? v + r : v - r) % 1000003;
    }
    return v;
}

/* Runs one statement; on an error skips to the next ';'. */
static void statement(struct interp *in)
{
    struct lexer *lx = &in->lx;
    in->error = NULL;
    in->statements++;
    if (lx->kind == T_PRINT) {
        next_token(lx);
        long v = expr(in);
        if (!in->error) {
            in->printed++;
            in->checksum = in->checksum * 31 + (unsigned long)v;
        }
    } else if (lx->kind == T_VAR) {
        int var = lx->var;
        next_token(lx);
        if (lx->kind != T_ASSIGN) {
            fail(in, "expected =");
        } else {
            next_token(lx);
            long v = expr(in);
            if (!in->error)
                in->vars[var] = v;
        }
    } else {
        fail(in, "expected a statement");
    }
    if (!in->error && lx->kind != T_SEMI)
        fail(in, "expected ;");
    if (in->error) {
        in->errors++;
        while (lx->kind != T_SEMI && lx->kind != T_END)
            next_token(lx);
    }
    if (lx->kind == T_SEMI)
        next_token(lx);
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 200000;
    char *text = gen_program(n);
    struct interp in;
    memset(&in, 0, sizeof in);
    in.lx.p = text;
    next_token(&in.lx);
    while (in.lx.kind != T_END)
        statement(&in);

    printf("demo: %lu statements, %lu printed, %lu errors, checksum %lu\n",
           in.statements, in.printed, in.errors, in.checksum);
    for (int k = 0; k < T_NKINDS; k++)
        printf("  %-8s tokens: %lu\n", tok_name[k], in.lx.count[k]);
    free(text);
    return 0;
}
