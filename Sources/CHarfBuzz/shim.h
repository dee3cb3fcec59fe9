#ifndef FEEDLAYOUT_CHARFBUZZ_SHIM_H
#define FEEDLAYOUT_CHARFBUZZ_SHIM_H
#include <hb.h>
#include <hb-ot.h>
#endif
