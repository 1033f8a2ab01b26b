/* Status codes by name and in words (winnow.h): a table of their own, with
 * no state, so that every layer (the readers, the renderers, the public
 * API) can name a status without calling up into another. */
#include "winnow.h"

const char *winnow_status_name(winnow_status s)
{
    switch (s) {
    case WINNOW_OK: return "WINNOW_OK";
    case WINNOW_PARTIAL: return "WINNOW_PARTIAL";
    case WINNOW_NO_CONTENT: return "WINNOW_NO_CONTENT";
    case WINNOW_NO_MAIN: return "WINNOW_NO_MAIN";
    case WINNOW_END: return "WINNOW_END";
    case WINNOW_THIN_MAIN: return "WINNOW_THIN_MAIN";
    case WINNOW_E_EMPTY: return "WINNOW_E_EMPTY";
    case WINNOW_E_BINARY: return "WINNOW_E_BINARY";
    case WINNOW_E_TOO_LARGE: return "WINNOW_E_TOO_LARGE";
    case WINNOW_E_NOMEM: return "WINNOW_E_NOMEM";
    case WINNOW_E_PARSE: return "WINNOW_E_PARSE";
    case WINNOW_E_IO: return "WINNOW_E_IO";
    case WINNOW_E_ARG: return "WINNOW_E_ARG";
    case WINNOW_E_DB_DAMAGED: return "WINNOW_E_DB_DAMAGED";
    case WINNOW_E_DB_READONLY: return "WINNOW_E_DB_READONLY";
    case WINNOW_E_DB_FORMAT: return "WINNOW_E_DB_FORMAT";
    case WINNOW_E_DB_BUSY: return "WINNOW_E_DB_BUSY";
    case WINNOW_E_FORMAT: return "WINNOW_E_FORMAT";
    case WINNOW_E_DB: return "WINNOW_E_DB";
    }
    return "WINNOW_UNKNOWN";
}

const char *winnow_status_message(winnow_status s)
{
    switch (s) {
    case WINNOW_OK: return "success";
    case WINNOW_PARTIAL: return "extracted, but the input was damaged (see the warning)";
    case WINNOW_NO_CONTENT: return "the page has no visible text to extract";
    case WINNOW_NO_MAIN: return "the page has visible text but none of it was found to be main content";
    case WINNOW_END: return "no more records";
    case WINNOW_THIN_MAIN:
        return "the page has much visible text but only its headline or a few words were found to be main content";
    case WINNOW_E_EMPTY: return "the input is empty";
    case WINNOW_E_BINARY: return "the input is not HTML or text";
    case WINNOW_E_TOO_LARGE: return "the input is larger than the configured limit";
    case WINNOW_E_NOMEM: return "out of memory";
    case WINNOW_E_PARSE: return "the HTML parser failed on this input";
    case WINNOW_E_IO: return "a file could not be opened, read or written, or the output could not be written";
    case WINNOW_E_ARG: return "invalid argument";
    case WINNOW_E_DB_DAMAGED: return "the site database is damaged";
    case WINNOW_E_DB_READONLY: return "the site database is read-only";
    case WINNOW_E_DB_FORMAT: return "the file is not a site database of a format this winnow reads";
    case WINNOW_E_DB_BUSY: return "another process kept the site database locked";
    case WINNOW_E_FORMAT: return "the file is not of the format it was read as";
    case WINNOW_E_DB: return "the site database failed";
    }
    return "unknown status";
}
