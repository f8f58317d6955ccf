#ifndef HUBGEO_CZLIB_H
#define HUBGEO_CZLIB_H

#include <stddef.h>
#include <stdint.h>

/// The most bytes hubgeo_gzip writes for `length` input bytes.
size_t hubgeo_gzip_bound(size_t length);

/// Compresses `input` as one gzip member (RFC 1952) at zlib level `level` (0-9) into `output`,
/// which holds `*outputLength` bytes; on success sets `*outputLength` to the bytes written and
/// returns 0, else returns a zlib error code.
int hubgeo_gzip(const uint8_t *input, size_t length, uint8_t *output, size_t *outputLength, int level);

/// Decompresses one gzip (or zlib) stream into `output` (`*outputLength` bytes); on success sets
/// `*outputLength` and returns 0; -5 (Z_BUF_ERROR) when `output` is too small.
int hubgeo_gunzip(const uint8_t *input, size_t length, uint8_t *output, size_t *outputLength);

#endif
