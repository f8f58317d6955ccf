#include "CZlib.h"
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

size_t hubgeo_gzip_bound(size_t length) {
    // deflateBound for the default window and memory level, plus the gzip header and trailer.
    return length + (length >> 12) + (length >> 14) + (length >> 25) + 13 + 18 + 64;
}

struct hubgeo_gzip_stream {
    z_stream stream;
};

hubgeo_gzip_stream *hubgeo_gzip_stream_create(int level) {
    hubgeo_gzip_stream *compressor = calloc(1, sizeof *compressor);
    if (compressor == NULL) return NULL;
    // 15 + 16: a gzip header and trailer around the deflate stream.
    if (deflateInit2(&compressor->stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(compressor);
        return NULL;
    }
    return compressor;
}

int hubgeo_gzip_stream_compress(hubgeo_gzip_stream *compressor, const uint8_t *input, size_t length, uint8_t *output,
                                size_t *outputLength) {
    z_stream *stream = &compressor->stream;
    // deflateReset keeps the state's buffers: a fresh deflateInit2 allocates about 256 KB (window, hash chains,
    // pending buffer) that free gives back to the system, so that every tile, a few hundred bytes, faulted in
    // fresh pages (measured: 667,000 buffers of 600 bytes took 234 s with deflateInit2/deflateEnd each and 26 s
    // with deflateReset, on a loaded machine; the output is the same).
    int status = deflateReset(stream);
    if (status != Z_OK) return status;
    stream->next_in = (Bytef *)input;
    stream->avail_in = (uInt)length;
    stream->next_out = output;
    stream->avail_out = (uInt)*outputLength;
    status = deflate(stream, Z_FINISH);
    *outputLength = stream->total_out;
    return status == Z_STREAM_END ? 0 : (status == Z_OK ? Z_BUF_ERROR : status);
}

void hubgeo_gzip_stream_destroy(hubgeo_gzip_stream *compressor) {
    if (compressor == NULL) return;
    deflateEnd(&compressor->stream);
    free(compressor);
}

int hubgeo_gzip(const uint8_t *input, size_t length, uint8_t *output, size_t *outputLength, int level) {
    // One buffer: a compressor of its own, used once.
    hubgeo_gzip_stream *compressor = hubgeo_gzip_stream_create(level);
    if (compressor == NULL) return Z_MEM_ERROR;
    int status = hubgeo_gzip_stream_compress(compressor, input, length, output, outputLength);
    hubgeo_gzip_stream_destroy(compressor);
    return status;
}

int hubgeo_gunzip(const uint8_t *input, size_t length, uint8_t *output, size_t *outputLength) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    // 15 + 32: gzip or zlib, told by the header.
    int status = inflateInit2(&stream, 15 + 32);
    if (status != Z_OK) return status;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = output;
    stream.avail_out = (uInt)*outputLength;
    status = inflate(&stream, Z_FINISH);
    *outputLength = stream.total_out;
    inflateEnd(&stream);
    return status == Z_STREAM_END ? 0 : (status == Z_OK ? Z_BUF_ERROR : status);
}
