#ifndef HUBGEO_CZLIB_H
#define HUBGEO_CZLIB_H

#include <stddef.h>
#include <stdint.h>

/// The most bytes hubgeo_gzip writes for `length` input bytes.
size_t hubgeo_gzip_bound(size_t length);

/// Compresses `input` as one gzip member (RFC 1952) into `output`: up to 16 KiB at a `level` above 0
/// with hubgeo's own deflate encoder (one block of fixed Huffman codes, see CZlib.c), else with zlib
/// at level `level` (0-9),
/// which holds `*outputLength` bytes; on success sets `*outputLength` to the bytes written and
/// returns 0, else returns a zlib error code.
int hubgeo_gzip(const uint8_t *input, size_t length, uint8_t *output, size_t *outputLength, int level);

/// A gzip compressor kept for many buffers (its fixed-code hash table and zlib state reused): hubgeo_gzip's bytes, without
/// its allocations per buffer. One thread at a time.
typedef struct hubgeo_gzip_stream hubgeo_gzip_stream;

/// A compressor at level `level` (0-9, zlib's meaning); NULL when its memory or zlib's state cannot be made.
hubgeo_gzip_stream *hubgeo_gzip_stream_create(int level);

/// As hubgeo_gzip, with the compressor's state.
int hubgeo_gzip_stream_compress(hubgeo_gzip_stream *compressor, const uint8_t *input, size_t length, uint8_t *output,
                                size_t *outputLength);

void hubgeo_gzip_stream_destroy(hubgeo_gzip_stream *compressor);

/// Decompresses one gzip (or zlib) stream into `output` (`*outputLength` bytes); on success sets
/// `*outputLength` and returns 0; -5 (Z_BUF_ERROR) when `output` is too small.
int hubgeo_gunzip(const uint8_t *input, size_t length, uint8_t *output, size_t *outputLength);

#endif
