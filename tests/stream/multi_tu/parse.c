/* parse.c - see main.c */
unsigned hash_mix(unsigned h, unsigned x);

unsigned parse_step(unsigned x)
{
    unsigned c = x % 7;
    if (c == 0)
        return hash_mix(x, 3);
    if (c < 4)
        return x * 5 + c;
    return x ^ 0x9e37u;
}
