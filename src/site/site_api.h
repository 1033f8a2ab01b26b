/* Bridge between the public winnow_site handle and the internal model
 * (handle.c). */
#ifndef WN_SITE_API_H
#define WN_SITE_API_H

#include "winnow.h"
#include "model.h"

winnow_site *wn_site_wrap(wn_site_model *m);
wn_site_model *wn_site_unwrap(const winnow_site *s);
/* Puts m in s in place of its model, which is freed. */
void wn_site_rewrap(winnow_site *s, wn_site_model *m);

#endif
