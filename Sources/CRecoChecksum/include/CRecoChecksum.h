// CRC-32 (IEEE 802.3, reflected) with the processor's own instructions, where it has them: carry-less
// multiplication (PCLMULQDQ) on x86-64, the CRC32 instructions on 64-bit ARM. RecoTracking's CRC32 calls
// these for longer buffers and falls back on its tables when they answer that they cannot.
#ifndef RECO_CHECKSUM_H
#define RECO_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/// Whether `reco_crc32_fold` can run on this processor (x86-64 with PCLMULQDQ). Asks the processor each time.
int reco_crc32_can_fold(void);

/// Advances a raw CRC state (not inverted) over `count` bytes, a multiple of 16 and at least 16: folds
/// them with carry-less multiplication and reduces the result to the new state. Only when
/// `reco_crc32_can_fold()` is 1.
uint32_t reco_crc32_fold(uint32_t state, const uint8_t *bytes, size_t count);

/// `reco_crc32_fold` for any `count` from 16 on (a last block shorter than 16 bytes is folded too).
uint32_t reco_crc32_fold_any(uint32_t state, const uint8_t *bytes, size_t count);

/// Advances a raw CRC state over `count` bytes with ARM's CRC32 instructions: 1 with `*state` advanced,
/// or 0 (nothing done) where they are not available.
int reco_crc32_arm(uint32_t *state, const uint8_t *bytes, size_t count);

#endif
