#include "CRecoEscaping.h"
#include <string.h>

#if defined(__x86_64__) || defined(__SSE2__)
#include <emmintrin.h>
#define RECO_HAVE_SSE2 1
#endif

// Writes the escape of one byte that needs it (below 0x20, `"` or `\`); returns where the next byte goes.
static uint8_t *escape_byte(uint8_t *out, uint8_t byte) {
    static const char hex[] = "0123456789abcdef";
    out[0] = '\\';
    switch (byte) {
    case '"': out[1] = '"'; return out + 2;
    case '\\': out[1] = '\\'; return out + 2;
    case '\n': out[1] = 'n'; return out + 2;
    case '\r': out[1] = 'r'; return out + 2;
    case '\t': out[1] = 't'; return out + 2;
    default:
        out[1] = 'u'; out[2] = '0'; out[3] = '0';
        out[4] = (uint8_t)hex[byte >> 4];
        out[5] = (uint8_t)hex[byte & 0xF];
        return out + 6;
    }
}

static int needs_escape(uint8_t byte) { return byte < 0x20 || byte == '"' || byte == '\\'; }

// Nonzero exactly when some byte of `word` is below 0x20, `"` or `\`. A byte above such a byte may be
// flagged too (the subtraction borrows out of it), which only sends that word to the byte-by-byte path;
// a borrow starts only at a byte that is flagged rightly, and bytes from 0x80 up are never flagged
// (`~word` clears their bit 7).
static uint64_t flagged(uint64_t word) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t quote = word ^ (ones * '"'), backslash = word ^ (ones * '\\');
    return (((word - ones * 0x20) & ~word) | ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash)) & highs;
}

static uint64_t load64(const uint8_t *at) { uint64_t word; memcpy(&word, at, 8); return word; }
static void store64(uint8_t *at, uint64_t word) { memcpy(at, &word, 8); }

// From `at` on: eight bytes a step, each word stored as it is and checked in the same step; a word with
// a byte to escape is written on byte by byte from there. The last few bytes by the last eight, which
// may overlap bytes already written as they are (a byte that needs no escape is always written as itself).
static size_t escape_words(uint8_t *output, const uint8_t *bytes, size_t count, size_t at, uint8_t *out) {
    while (at + 8 <= count) {
        uint64_t word = load64(bytes + at);
        store64(out, word);
        if (!flagged(word)) { out += 8; at += 8; continue; }
        for (size_t end = at + 8; at < end; at++) out = needs_escape(bytes[at]) ? escape_byte(out, bytes[at]) : (*out = bytes[at], out + 1);
    }
    if (at < count && count >= 8 && !flagged(load64(bytes + count - 8))) {
        store64(out - (8 - (count - at)), load64(bytes + count - 8));
        return (size_t)(out - output) + (count - at);
    }
    for (; at < count; at++) out = needs_escape(bytes[at]) ? escape_byte(out, bytes[at]) : (*out = bytes[at], out + 1);
    return (size_t)(out - output);
}

size_t reco_json_escape_portable(uint8_t *output, const uint8_t *bytes, size_t count) {
    return escape_words(output, bytes, count, 0, output);
}

#if RECO_HAVE_SSE2
// One bit for each of the sixteen bytes that needs escaping.
static unsigned special_bytes(__m128i block) {
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), control = _mm_set1_epi8(0x1F);
    // Below 0x20 (unsigned): the byte is its own minimum with 0x1F.
    __m128i flags = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash)),
                                 _mm_cmpeq_epi8(_mm_min_epu8(block, control), block));
    return (unsigned)_mm_movemask_epi8(flags);
}

size_t reco_json_escape(uint8_t *output, const uint8_t *bytes, size_t count) {
    uint8_t *out = output;
    size_t at = 0;
    while (at + 16 <= count) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + at));
        _mm_storeu_si128((__m128i *)out, block);
        unsigned mask = special_bytes(block);
        if (mask == 0) { out += 16; at += 16; continue; }
        // The bytes before the first to escape are stored already.
        unsigned clean = (unsigned)__builtin_ctz(mask);
        out = escape_byte(out + clean, bytes[at + clean]);
        at += clean + 1;
    }
    // The last few bytes by the last sixteen, which may overlap bytes already written as they are: when
    // none of the sixteen needs escaping, those before `at` were written as themselves, just before `out`.
    if (at < count && count >= 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + count - 16));
        if (special_bytes(block) == 0) {
            _mm_storeu_si128((__m128i *)(out - (16 - (count - at))), block);
            return (size_t)(out - output) + (count - at);
        }
    }
    return escape_words(output, bytes, count, at, out);
}
#else
size_t reco_json_escape(uint8_t *output, const uint8_t *bytes, size_t count) {
    return escape_words(output, bytes, count, 0, output);
}
#endif

size_t reco_json_member(uint8_t *output, const uint8_t *key, size_t key_length, const uint8_t *field, size_t count) {
    // The key by words that may overlap: the first eight, the second eight when it is longer than sixteen,
    // the last eight; a key under eight bytes by its first four and last four.
    if (key_length >= 8) {
        store64(output, load64(key));
        if (key_length > 16) store64(output + 8, load64(key + 8));
        store64(output + key_length - 8, load64(key + key_length - 8));
    } else {
        uint32_t first, last;
        memcpy(&first, key, 4);
        memcpy(&last, key + key_length - 4, 4);
        memcpy(output, &first, 4);
        memcpy(output + key_length - 4, &last, 4);
    }
    uint8_t *out = output + key_length;
    if (count <= 8) {
        // The field's bytes in the low `count` bytes of the word that ends where it ends; the rest made
        // letters, which need no escape.
        uint64_t word = count == 0 ? 0 : load64(field + count - 8) >> (64 - 8 * count);
        uint64_t letters = count == 8 ? 0 : 0x4141414141414141ULL << (8 * count);
        if (!flagged(word | letters)) {
            store64(out, word);
            out[count] = '"';
            return key_length + count + 1;
        }
    } else if (count <= 16) {
        uint64_t first = load64(field), last = load64(field + count - 8);
        if (!flagged(first) && !flagged(last)) {
            store64(out, first);
            store64(out + count - 8, last);
            out[count] = '"';
            return key_length + count + 1;
        }
    }
    size_t written = reco_json_escape(out, field, count);
    out[written] = '"';
    return key_length + written + 1;
}
