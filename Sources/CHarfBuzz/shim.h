#ifndef FEEDLAYOUT_CHARFBUZZ_SHIM_H
#define FEEDLAYOUT_CHARFBUZZ_SHIM_H
#include <hb.h>
#include <hb-ot.h>

/* Shaping through a table of the BMP's nominal glyphs: a sub-font of an hb_ot font whose
 * nominal-glyph functions read `glyphs[u]` (0: not mapped) for u < 0x10000 and ask the parent
 * font's cmap otherwise. The table is made from the same cmap, so every glyph id is the one the
 * parent gives; HarfBuzz's normalizer asks for each character's glyph several times, and the
 * table answers with one load instead of a search of the face's cmap subtables.
 * `glyphs` must outlive the font (the caller owns it). */
static hb_bool_t feedlayout_nominal_glyph(
    hb_font_t *font, void *font_data, hb_codepoint_t u, hb_codepoint_t *glyph, void *user_data) {
    (void)font_data;
    if (u < 0x10000) {
        unsigned short g = ((const unsigned short *)user_data)[u];
        if (g == 0) return 0;
        *glyph = g;
        return 1;
    }
    return hb_font_get_nominal_glyph(hb_font_get_parent(font), u, glyph);
}

static unsigned feedlayout_nominal_glyphs(
    hb_font_t *font, void *font_data, unsigned count, const hb_codepoint_t *first_unicode,
    unsigned unicode_stride, hb_codepoint_t *first_glyph, unsigned glyph_stride, void *user_data) {
    (void)font_data;
    const unsigned short *table = (const unsigned short *)user_data;
    unsigned i = 0;
    for (; i < count; i++) {
        hb_codepoint_t u = *first_unicode;
        if (u < 0x10000) {
            unsigned short g = table[u];
            if (g == 0) break;
            *first_glyph = g;
        } else if (!hb_font_get_nominal_glyph(hb_font_get_parent(font), u, first_glyph)) {
            break;
        }
        first_unicode = (const hb_codepoint_t *)((const char *)first_unicode + unicode_stride);
        first_glyph = (hb_codepoint_t *)((char *)first_glyph + glyph_stride);
    }
    return i;
}

/* The sub-font of `parent` described above; never null (HarfBuzz returns its empty font on
 * failure). */
static inline hb_font_t *feedlayout_create_table_font(hb_font_t *parent, const unsigned short *glyphs) {
    hb_font_funcs_t *funcs = hb_font_funcs_create();
    hb_font_funcs_set_nominal_glyph_func(funcs, feedlayout_nominal_glyph, (void *)glyphs, 0);
    hb_font_funcs_set_nominal_glyphs_func(funcs, feedlayout_nominal_glyphs, (void *)glyphs, 0);
    hb_font_funcs_make_immutable(funcs);
    hb_font_t *font = hb_font_create_sub_font(parent);
    hb_font_set_funcs(font, funcs, 0, 0);
    hb_font_funcs_destroy(funcs);
    hb_font_make_immutable(font);
    return font;
}
#endif
