#include "CRecoChecksum.h"
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>

int reco_crc32_can_fold(void) {
    // Asked once (CRC32.folds, a Swift static); nothing cached here, so nothing shared between threads.
    __builtin_cpu_init();
    return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse2") ? 1 : 0;
}

// The message as a polynomial, reflected: bit i of a little-endian 128-bit block is the coefficient of
// x^(127 - i). Each block is folded forward over the next 128 bits of message by carry-less multiplication
// of its two 64-bit halves with x^(128+32) and x^(128-32) mod P; the last block is folded to 64 bits, then
// to 32, and reduced modulo P with Barrett's method (u = x^64 / P). The constants are those of Intel's
// "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ" for P = 0x104C11DB7, bit-reflected and
// shifted one place (a reflected carry-less product comes out one degree low).
static const long long fold_high = 0x0ccaa009eLL;  // x^(128-32) mod P, for the high half
static const long long fold_low = 0x1751997d0LL;   // x^(128+32) mod P, for the low half

// Folds `folded` forward over `count` bytes (a multiple of 16) at `bytes`, a block at a time.
__attribute__((target("pclmul,sse2")))
static __m128i fold_blocks(__m128i folded, const uint8_t *bytes, size_t count) {
    const __m128i fold = _mm_set_epi64x(fold_high, fold_low);
    for (size_t at = 0; at + 16 <= count; at += 16) {
        __m128i low = _mm_clmulepi64_si128(folded, fold, 0x00);
        __m128i high = _mm_clmulepi64_si128(folded, fold, 0x11);
        folded = _mm_xor_si128(_mm_xor_si128(low, high), _mm_loadu_si128((const __m128i *)(bytes + at)));
    }
    return folded;
}

// The last block reduced to the 32-bit state.
__attribute__((target("pclmul,sse2")))
static uint32_t reduce(__m128i folded) {
    const __m128i fold = _mm_set_epi64x(fold_high, fold_low);
    const __m128i to32 = _mm_set_epi64x(0, (long long)0x163cd6124ULL);  // x^64 mod P
    const __m128i barrett = _mm_set_epi64x((long long)0x1F7011641ULL,  // u, the quotient x^64 / P
                                           (long long)0x1DB710641ULL); // P
    const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);
    // 128 bits to 64: the low half times x^(128-32) mod P, plus the high half.
    folded = _mm_xor_si128(_mm_clmulepi64_si128(folded, fold, 0x10), _mm_srli_si128(folded, 8));
    // 64 bits to 32: the low 32 bits times x^64 mod P, plus the rest.
    folded = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(folded, low32), to32, 0x00), _mm_srli_si128(folded, 4));
    // Barrett: the quotient's low 32 bits times P, subtracted (xored); the remainder is in bits 32-63.
    __m128i quotient = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(folded, low32), barrett, 0x10), low32);
    folded = _mm_xor_si128(folded, _mm_clmulepi64_si128(quotient, barrett, 0x00));
    return (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(folded, 4));
}

__attribute__((target("pclmul,sse2")))
uint32_t reco_crc32_fold(uint32_t state, const uint8_t *bytes, size_t count) {
    // The state enters as the first four message bytes xored with it (the same as starting from it).
    __m128i folded = _mm_xor_si128(_mm_loadu_si128((const __m128i *)bytes), _mm_cvtsi32_si128((int)state));
    return reduce(fold_blocks(folded, bytes + 16, count - 16));
}

// Any length from 16 on. A zero state is unchanged by zero bytes, and a state is the same as its bytes
// xored into the first four of the message: so the message, the state xored into its start, after as
// many zero bytes as make its length a multiple of 16, has the same checksum, and folds whole blocks.
// Its first two blocks are made here (zeros, then the message's first bytes); the rest are the message's.
__attribute__((target("pclmul,sse2")))
uint32_t reco_crc32_fold_any(uint32_t state, const uint8_t *bytes, size_t count) {
    size_t rest = count & 15;
    if (rest == 0) return reco_crc32_fold(state, bytes, count);
    size_t pad = 16 - rest;
    // Fixed-size stores only (no calls): zeros, the message's first 16 bytes after `pad` of them, then
    // its bytes `rest` to `rest + 16`, which end the second block (and agree where the two overlap).
    uint8_t head[32];
    _mm_storeu_si128((__m128i *)head, _mm_setzero_si128());
    _mm_storeu_si128((__m128i *)(head + pad), _mm_loadu_si128((const __m128i *)bytes));
    _mm_storeu_si128((__m128i *)(head + 16), _mm_loadu_si128((const __m128i *)(bytes + rest)));
    uint32_t first;
    memcpy(&first, head + pad, 4);
    first ^= state;
    memcpy(head + pad, &first, 4);
    __m128i folded = fold_blocks(_mm_loadu_si128((const __m128i *)head), head + 16, 16);
    return reduce(fold_blocks(folded, bytes + (32 - pad), count - (32 - pad)));
}
#else
int reco_crc32_can_fold(void) { return 0; }
uint32_t reco_crc32_fold(uint32_t state, const uint8_t *bytes, size_t count) {
    (void)bytes; (void)count;
    return state;
}
uint32_t reco_crc32_fold_any(uint32_t state, const uint8_t *bytes, size_t count) {
    (void)bytes; (void)count;
    return state;
}
#endif

#if defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#include <arm_acle.h>

int reco_crc32_arm(uint32_t *state, const uint8_t *bytes, size_t count) {
    uint32_t crc = *state;
    size_t at = 0;
    for (; at + 8 <= count; at += 8) {
        uint64_t word;
        memcpy(&word, bytes + at, 8);
        crc = __crc32d(crc, word);
    }
    for (; at < count; at++) crc = __crc32b(crc, bytes[at]);
    *state = crc;
    return 1;
}
#else
int reco_crc32_arm(uint32_t *state, const uint8_t *bytes, size_t count) {
    (void)state; (void)bytes; (void)count;
    return 0;
}
#endif
