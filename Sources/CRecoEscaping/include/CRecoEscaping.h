// JSON string escaping of UTF-8 bytes, sixteen bytes at a time with SSE2 on x86-64 (eight at a time
// elsewhere). RecoTracking's BodyWriter writes every string field of a vendor's event batch through it.
#ifndef RECO_ESCAPING_H
#define RECO_ESCAPING_H

#include <stddef.h>
#include <stdint.h>

/// Writes `count` bytes of UTF-8 escaped for the inside of a JSON string to `output`, and returns how
/// many bytes it wrote. `"` and `\` are written `\"` and `\\`; newline, carriage return and tab `\n`,
/// `\r` and `\t`; the other bytes below 0x20 `\u00XX` (lower-case hex); every other byte as it is.
/// `output` must have room for `6 * count + 16` bytes: beyond what it writes, up to 16 bytes after it
/// may be overwritten with bytes of no meaning.
size_t reco_json_escape(uint8_t *output, const uint8_t *bytes, size_t count);

/// The same with eight bytes at a time in plain C, whatever the processor: what `reco_json_escape` does
/// where it has no vector instructions (tests compare the two).
size_t reco_json_escape_portable(uint8_t *output, const uint8_t *bytes, size_t count);

/// Writes `key` (4 to 24 bytes, ending in a string's opening quote: `,"lang":"`), then `count` bytes of UTF-8
/// escaped as `reco_json_escape` escapes them, then the closing quote; returns how many bytes it wrote.
/// `output` must have room as for `reco_json_escape`, plus the key and the quote. The eight bytes before
/// the field's end must be readable (a journal record's fields always lie after its 27-byte header): a
/// field of up to eight bytes is read as that one word.
size_t reco_json_member(uint8_t *output, const uint8_t *key, size_t key_length, const uint8_t *field, size_t count);

#endif
