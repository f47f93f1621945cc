#define K 2
#include "copy.h"
int fb(int x) { return f(x); }
