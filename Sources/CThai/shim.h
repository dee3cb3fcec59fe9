#ifndef FEEDLAYOUT_CTHAI_SHIM_H
#define FEEDLAYOUT_CTHAI_SHIM_H
/* libthai: dictionary-based word breaking of Thai (the breaks Pango adds inside Thai items). */
#include <thai/thbrk.h>
#include <thai/thwchar.h>
#endif
