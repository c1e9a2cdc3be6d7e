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
// x^(127 - i). One block is folded forward over the next 128 bits of message by multiplying its low half
// (x^127..x^64) by x^192 and its high half (x^63..x^0) by x^128, modulo the polynomial. A carry-less
// product of two reflected 64-bit halves comes out one degree low, so the constants are x^191 and x^127
// mod P, reflected into the top 32 bits of a 64-bit half.
__attribute__((target("pclmul,sse2")))
void reco_crc32_fold(uint32_t state, const uint8_t *bytes, size_t count, uint8_t *residue) {
    const __m128i constants = _mm_set_epi64x((long long)0x9ba54c6f00000000ULL,   // x^127 mod P, for the high half
                                             (long long)0x65673b4600000000ULL);  // x^191 mod P, for the low half
    __m128i folded = _mm_xor_si128(_mm_loadu_si128((const __m128i *)bytes), _mm_cvtsi32_si128((int)state));
    for (size_t at = 16; at + 16 <= count; at += 16) {
        __m128i low = _mm_clmulepi64_si128(folded, constants, 0x00);
        __m128i high = _mm_clmulepi64_si128(folded, constants, 0x11);
        folded = _mm_xor_si128(_mm_xor_si128(low, high), _mm_loadu_si128((const __m128i *)(bytes + at)));
    }
    _mm_storeu_si128((__m128i *)residue, folded);
}
#else
int reco_crc32_can_fold(void) { return 0; }
void reco_crc32_fold(uint32_t state, const uint8_t *bytes, size_t count, uint8_t *residue) {
    (void)state; (void)bytes; (void)count; memset(residue, 0, 16);
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
