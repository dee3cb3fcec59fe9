#ifndef FEEDLAYOUT_CCAIRO_SHIM_H
#define FEEDLAYOUT_CCAIRO_SHIM_H
#include <cairo.h>
#endif
