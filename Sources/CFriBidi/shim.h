#ifndef FEEDLAYOUT_CFRIBIDI_SHIM_H
#define FEEDLAYOUT_CFRIBIDI_SHIM_H
/* GNU FriBidi: the Unicode bidirectional algorithm as Pango runs it (embedding levels of a
 * paragraph). Its type tests are macros over bit masks, which Swift does not import: the inline
 * functions below name them, on the types' raw values (Swift imports the type enums as
 * structs). */
#include <fribidi.h>

static inline int feedlayout_fribidi_is_strong(uint32_t t) { return FRIBIDI_IS_STRONG(t) != 0; }
static inline int feedlayout_fribidi_is_rtl(uint32_t t) { return FRIBIDI_IS_RTL(t) != 0; }
static inline int feedlayout_fribidi_is_arabic(uint32_t t) { return FRIBIDI_IS_ARABIC(t) != 0; }
static inline int feedlayout_fribidi_is_isolate(uint32_t t) { return FRIBIDI_IS_ISOLATE(t) != 0; }
static inline int feedlayout_fribidi_is_number(uint32_t t) { return FRIBIDI_IS_NUMBER(t) != 0; }
static inline int feedlayout_fribidi_is_explicit_or_isolate(uint32_t t) {
    return (FRIBIDI_IS_EXPLICIT(t) || FRIBIDI_IS_ISOLATE(t)) != 0;
}
static inline uint32_t feedlayout_fribidi_type_on(void) { return FRIBIDI_TYPE_ON; }
static inline uint32_t feedlayout_fribidi_type_rle(void) { return FRIBIDI_TYPE_RLE; }
static inline FriBidiParType feedlayout_fribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType feedlayout_fribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }
#endif
