#define K 1
#include "copy.h"
int fa(int x) { return f(x); }
