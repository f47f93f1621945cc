/* wide.c - a TU with more path indices than the blpp analyzer counts in
 * its flat array (2^17 paths: analyzers/blpp/blpp.c, BLPP_FLAT_TU), so
 * that tests/stream-multi-tu.t interleaves events of flat and other TUs. */
#define BIT(k) if (x & (1u << (k))) s += (k) * 3u + 1u; else s ^= (k);
unsigned wide(unsigned x)
{
    unsigned s = 0;
    BIT(0) BIT(1) BIT(2) BIT(3) BIT(4) BIT(5) BIT(6) BIT(7) BIT(8)
    BIT(9) BIT(10) BIT(11) BIT(12) BIT(13) BIT(14) BIT(15) BIT(16)
    return s;
}
