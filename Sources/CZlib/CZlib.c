#include "CZlib.h"
#include <string.h>
#include <zlib.h>

size_t hubgeo_gzip_bound(size_t length) {
    // deflateBound for the default window and memory level, plus the gzip header and trailer.
    return length + (length >> 12) + (length >> 14) + (length >> 25) + 13 + 18 + 64;
}

int hubgeo_gzip(const uint8_t *input, size_t length, uint8_t *output, size_t *outputLength, int level) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    // 15 + 16: a gzip header and trailer around the deflate stream.
    int status = deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    if (status != Z_OK) return status;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = output;
    stream.avail_out = (uInt)*outputLength;
    status = deflate(&stream, Z_FINISH);
    *outputLength = stream.total_out;
    deflateEnd(&stream);
    return status == Z_STREAM_END ? 0 : (status == Z_OK ? Z_BUF_ERROR : status);
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
