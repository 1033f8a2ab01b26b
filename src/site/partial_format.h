/* The partial file's format, shared by its writer (partial.c) and its
 * reader (partial_read.c). Private to src/site.
 *
 * The file (format 1, docs/formats.md "Partial files") is a gzip stream of
 * little-endian records:
 *
 *   header  "WNPART\r\n", u32 format (1), u32 flags (0)
 *   site    u8 'S', u32 name length, name, f64 half-life, u32 pages,
 *           per page: u64 I-Match signature, u32 URL length + 1 (0: none),
 *                     URL, u32 ContentExtractor page (0xffffffff: none),
 *                     u32 keys, per key: u8 kind, u64 key, u8 sample
 *                     length (0: none), sample;
 *           u32 blocks, per block: u8 ContentExtractor page, u64 block
 *           path, u32 vector length, vector (ce.c's packing);
 *           u64 checksum: XXH3-64 of the record from its 'S' on
 *   end     u8 'E', u64 sites, u64 pages, u64 checksum: XXH3-64 of every
 *           byte before it, header on
 *
 * Sites come in strictly increasing byte order of their names, so that a
 * merge reads all its parts side by side, one site at a time; each site's
 * pages in the order they were learned. */
#ifndef WN_PARTIAL_FORMAT_H
#define WN_PARTIAL_FORMAT_H

#include <stdint.h>

static const unsigned char MAGIC[8] = { 'W', 'N', 'P', 'A', 'R', 'T', '\r', '\n' };

/* What a sound file never holds: bounds that stop a damaged length from
 * asking for gigabytes before its checksum is reached. */
#define NAME_MAX_BYTES 65535u
#define URL_MAX_BYTES (16u << 20)
#define KEYS_MAX (1u << 24)
#define VEC_MAX_BYTES (64u << 20)
#define SAMPLE_MAX 95u
#define NO_CE_PAGE UINT32_MAX

#endif
