/* libFuzzer targets for the container readers: fuzz_warc and fuzz_jsonl
 * are this file built with FUZZ_FORMAT set to WINNOW_INPUT_WARC or
 * WINNOW_INPUT_JSONL (fuzz/CMakeLists.txt).
 *
 * Each input is one file as the reader would find it on disk, plain or
 * gzip-compressed (the stream undoes gzip whatever the format), read
 * through a memory stream (wn_reader_open_fp over fmemopen) to the end.
 * The record size limit is small so that a length field may claim more
 * than there is. Besides the sanitizers, the reader's contracts are
 * checked: a failed open comes with no reader and a message; every record
 * has its id, source and file, a length within the limit and a number in
 * range; the reader ends with WINNOW_END or a failure that stays and has a
 * message; a warning is one line. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "contracts.h"
#include "input/reader_internal.h"

#ifndef FUZZ_FORMAT
#error "FUZZ_FORMAT must name the format read"
#endif
#if FUZZ_FORMAT == WINNOW_INPUT_WARC
#define TARGET "fuzz_warc"
#else
#define TARGET "fuzz_jsonl"
#endif

#define RECORD_LIMIT 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void contract(int ok, const char *what) { fuzz_contract(ok, TARGET, what); }

static int one_line(const char *s) { return !strchr(s, '\n'); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* fmemopen reads from the buffer without changing it */
    FILE *fp = fmemopen((void *)data, size, "rb");
    contract(fp != NULL, "fmemopen failed");
    winnow_reader_options o;
    winnow_reader_options_default(&o, sizeof o);
    o.format = FUZZ_FORMAT;
    o.max_record_bytes = RECORD_LIMIT;
    winnow_reader *r = NULL;
    char err[700];
    winnow_status st = wn_reader_open_fp(fp, "fuzz", &o, &r, err, sizeof err);
    if (st != WINNOW_OK) {
        contract(WINNOW_FAILED(st), "a failed open returned a status that is not a failure");
        contract(r == NULL, "a failed open returned a reader");
        contract(err[0] != '\0', "a failed open left no message");
        return 0;
    }
    contract(winnow_reader_format(r) == FUZZ_FORMAT, "the reader reads another format than the one asked");
    long long last = -1;
    size_t records = 0;
    winnow_record rec = { sizeof rec };
    while ((st = winnow_reader_next(r, &rec)) == WINNOW_OK) {
        records++;
        contract(rec.id && *rec.id && rec.source && *rec.source && rec.file, "a record lacks its id, source or file");
        contract(rec.len <= RECORD_LIMIT, "a record over the size limit was handed out");
        contract(rec.data != NULL || rec.len == 0, "a record has a length but no bytes");
        contract(rec.number > last, "record numbers do not grow");
        last = rec.number;
        /* every byte is readable (ASan checks) */
        volatile unsigned char sum = 0;
        for (size_t i = 0; i < rec.len; i++) sum ^= ((const unsigned char *)rec.data)[i];
        (void)sum;
        contract(one_line(winnow_reader_warning(r)), "a warning spans lines");
    }
    if (st != WINNOW_END) {
        contract(WINNOW_FAILED(st), "winnow_reader_next returned neither a record, the end nor a failure");
        contract(winnow_reader_error(r)[0] != '\0', "a failed reader has no message");
        contract(winnow_reader_next(r, &rec) == st, "a failure did not stay");
    } else {
        contract(winnow_reader_next(r, &rec) == WINNOW_END, "the end did not stay");
    }
    contract(winnow_reader_too_large(r) <= winnow_reader_skipped(r), "more records too large than skipped");
    (void)records;
    winnow_reader_close(r);
    return 0;
}
