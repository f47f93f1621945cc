// acc-lib.cc - the explicit instantiation of Acc<int>: the "library" copy
// of its members (tests/cxx-extern-template.t builds it without pathprof).
#include "acc.h"
template struct Acc<int>;
