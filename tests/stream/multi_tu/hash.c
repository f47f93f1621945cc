/* hash.c - see main.c */
unsigned hash_mix(unsigned h, unsigned x)
{
    h ^= x;
    h *= 16777619u;
    if (h & 8)
        h ^= h >> 13;
    return h;
}
