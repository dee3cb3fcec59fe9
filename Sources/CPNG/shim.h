#ifndef FEEDLAYOUT_CPNG_SHIM_H
#define FEEDLAYOUT_CPNG_SHIM_H
#include <png.h>
#endif
