/* Structures that cross the public API and can grow (winnow.h,
 * "Structures that cross the API can grow"): each starts with
 * `size_t struct_size`, the size the caller's header declares.
 *
 * The library keeps its side in a whole structure of its own and copies
 * between that and the caller's with these two functions, so that no code
 * past the API boundary reads a field the caller's structure may not have.
 *
 * For the maintainer who adds a field: put it at the end, give the caller
 * that does not know it a default (the _default() function's value, or 0),
 * and leave `min` (the first version's size, WN_FIELD_END of its last field)
 * as it is. A field that fits in the trailing padding of the version before
 * would be read from a caller's padding: add an explicit padding field
 * first instead. Keep the structures free of padding altogether (a caller
 * that fills one with an initializer leaves its padding undefined, and an
 * older library looks at every byte past the fields it knows). */
#ifndef WN_STRUCTS_H
#define WN_STRUCTS_H

#include <stddef.h>
#include <string.h>

/* No structure of the API comes near this: a struct_size past it is
 * garbage (a structure the caller did not initialise), refused rather than
 * taken for a newer header's, which would write that far. */
#define WN_STRUCT_MAX ((size_t)4096)

/* The end of a field: the smallest struct_size that holds it. */
#define WN_FIELD_END(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/* Copies the caller's structure src (src's struct_size bytes) over dst, a
 * structure of `known` bytes that holds the library's defaults, so that
 * fields the caller does not have keep them. -1 when struct_size is below
 * min or past WN_STRUCT_MAX, or above known with a byte past known that is
 * not zero (an option this library does not know, set away from its
 * default). */
static inline int wn_struct_in(void *dst, size_t known, const void *src, size_t min)
{
    size_t size;
    memcpy(&size, src, sizeof size);
    if (size < min || size > WN_STRUCT_MAX) return -1;
    const unsigned char *s = src;
    for (size_t i = known; i < size; i++)
        if (s[i]) return -1;
    memcpy(dst, src, size < known ? size : known);
    memcpy(dst, &known, sizeof known);
    return 0;
}

/* Copies src, the library's whole structure of `known` bytes, into the
 * caller's structure dst as far as dst's struct_size goes, zeroes what lies
 * past known, and leaves dst's struct_size as it was. -1 (nothing written)
 * when that struct_size is below min or past WN_STRUCT_MAX. */
static inline int wn_struct_out(void *dst, const void *src, size_t known, size_t min)
{
    size_t size;
    memcpy(&size, dst, sizeof size);
    if (size < min || size > WN_STRUCT_MAX) return -1;
    memcpy(dst, src, size < known ? size : known);
    if (size > known) memset((unsigned char *)dst + known, 0, size - known);
    memcpy(dst, &size, sizeof size);
    return 0;
}

#endif
