#include "CZlib.h"
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

size_t hubgeo_gzip_bound(size_t length) {
    // The fixed-code block's bound (9 bits for a literal at worst, the header, trailer and block end), which
    // is above deflateBound for the default window and memory level plus the gzip header and trailer
    // (length + (length >> 12) + (length >> 14) + (length >> 25) + 13 + 18).
    return length + (length >> 3) + 128;
}

// Tiles are small (a few hundred bytes: 275 on average for 200,000 organizations at zooms 0-10), and
// zlib's cost for each is mostly fixed: resetting its state and building the Huffman trees of each block,
// about 11 us a tile, 55 % of `hubgeo tiles`' time by perf. For these, a deflate block with the fixed
// Huffman codes of RFC 1951 and a greedy LZ77 over a table of the last position of each 3-byte hash takes
// 0.9 us a tile and writes 1 % more bytes (measured on those 40,677 tiles: zlib at level 6 0.442 s, 9,805,731
// bytes; this 0.036 s, 9,923,167 bytes). Larger buffers (the directories, big tiles) still go to zlib.
#define FIXED_DEFLATE_LIMIT (16 << 10)
#define HASH_BITS 13
typedef struct {
    uint32_t head[1 << HASH_BITS];
    uint32_t base;               /* positions are stored plus base: older entries are below it */
    uint16_t litcode[288]; uint8_t litlen[288];
    uint16_t distcode[30];
} fixed_deflate;

static uint16_t reverse(uint16_t code, int length) {
    uint16_t out = 0;
    for (int i = 0; i < length; i++) { out = (out << 1) | (code & 1); code >>= 1; }
    return out;
}

static void fixed_init(fixed_deflate *s) {
    memset(s, 0, sizeof *s);
    s->base = 1;
    for (int i = 0; i < 288; i++) {
        int code, length;
        if (i < 144) { code = 0x30 + i; length = 8; }
        else if (i < 256) { code = 0x190 + (i - 144); length = 9; }
        else if (i < 280) { code = i - 256; length = 7; }
        else { code = 0xC0 + (i - 280); length = 8; }
        s->litcode[i] = reverse(code, length); s->litlen[i] = length;
    }
    for (int i = 0; i < 30; i++) s->distcode[i] = reverse(i, 5);
}

static const uint16_t length_base[29] = {3,4,5,6,7,8,9,10,11,13,15,17,19,23,27,31,35,43,51,59,67,83,99,115,131,163,195,227,258};
static const uint8_t length_extra[29] = {0,0,0,0,0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,0};
static const uint16_t dist_base[30] = {1,2,3,4,5,7,9,13,17,25,33,49,65,97,129,193,257,385,513,769,1025,1537,2049,3073,4097,6145,8193,12289,16385,24577};
static const uint8_t dist_extra[30] = {0,0,0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12,13,13};

typedef struct { uint8_t *out; size_t pos; uint64_t bits; int count; } bitwriter;
static inline void put(bitwriter *w, uint32_t value, int length) {
    w->bits |= (uint64_t)value << w->count; w->count += length;
    while (w->count >= 8) { w->out[w->pos++] = (uint8_t)w->bits; w->bits >>= 8; w->count -= 8; }
}

static inline uint32_t hash3(const uint8_t *p) {
    uint32_t v = p[0] | (p[1] << 8) | (p[2] << 16);
    return (v * 2654435761u) >> (32 - HASH_BITS);
}

/* The gzip member of `in`; returns the bytes written, at most length + length / 8 + 64. */
static size_t fixed_gzip(fixed_deflate *s, const uint8_t *in, size_t length, uint8_t *output) {
    static const uint8_t header[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
    memcpy(output, header, 10);
    bitwriter w = { output, 10, 0, 0 };
    put(&w, 1, 1); put(&w, 1, 2);            /* BFINAL, BTYPE=01 */
    if (s->base > 0xF0000000u - length) { memset(s->head, 0, sizeof s->head); s->base = 1; }
    uint32_t base = s->base;
    size_t i = 0;
    while (i < length) {
        size_t best = 0, distance = 0;
        if (i + 3 <= length) {
            uint32_t h = hash3(in + i);
            uint32_t candidate = s->head[h];
            s->head[h] = base + (uint32_t)i;
            if (candidate >= base) {
                size_t j = candidate - base;
                if (i - j <= 32768 && in[j] == in[i] && in[j + 1] == in[i + 1] && in[j + 2] == in[i + 2]) {
                    size_t max = length - i < 258 ? length - i : 258, n = 3;
                    while (n < max && in[j + n] == in[i + n]) n++;
                    best = n; distance = i - j;
                }
            }
        }
        if (best >= 3) {
            int code = 0; while (code < 28 && length_base[code + 1] <= best) code++;
            put(&w, s->litcode[257 + code], s->litlen[257 + code]);
            if (length_extra[code]) put(&w, best - length_base[code], length_extra[code]);
            int d = 0; while (d < 29 && dist_base[d + 1] <= distance) d++;
            put(&w, s->distcode[d], 5);
            if (dist_extra[d]) put(&w, distance - dist_base[d], dist_extra[d]);
            /* index the positions inside the match (cheaply: every one) */
            for (size_t k = i + 1; k < i + best && k + 3 <= length; k++) s->head[hash3(in + k)] = base + (uint32_t)k;
            i += best;
        } else {
            put(&w, s->litcode[in[i]], s->litlen[in[i]]);
            i++;
        }
    }
    put(&w, s->litcode[256], s->litlen[256]);
    if (w.count > 0) put(&w, 0, 8 - w.count);
    uint32_t crc = (uint32_t)crc32(0L, in, (uInt)length);
    for (int k = 0; k < 4; k++) output[w.pos++] = (uint8_t)(crc >> (8 * k));
    for (int k = 0; k < 4; k++) output[w.pos++] = (uint8_t)((uint32_t)length >> (8 * k));
    s->base = base + (uint32_t)length + 32769;
    return w.pos;
}

struct hubgeo_gzip_stream {
    z_stream stream;
    int level;
    fixed_deflate *fixed;
};

hubgeo_gzip_stream *hubgeo_gzip_stream_create(int level) {
    hubgeo_gzip_stream *compressor = calloc(1, sizeof *compressor);
    if (compressor == NULL) return NULL;
    compressor->level = level;
    // 15 + 16: a gzip header and trailer around the deflate stream.
    if (deflateInit2(&compressor->stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(compressor);
        return NULL;
    }
    return compressor;
}

int hubgeo_gzip_stream_compress(hubgeo_gzip_stream *compressor, const uint8_t *input, size_t length, uint8_t *output,
                                size_t *outputLength) {
    if (compressor->level != 0 && length <= FIXED_DEFLATE_LIMIT) {
        if (*outputLength < length + (length >> 3) + 64) return Z_BUF_ERROR;
        if (compressor->fixed == NULL) {
            compressor->fixed = malloc(sizeof *compressor->fixed);
            if (compressor->fixed == NULL) return Z_MEM_ERROR;
            fixed_init(compressor->fixed);
        }
        *outputLength = fixed_gzip(compressor->fixed, input, length, output);
        return 0;
    }
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
    free(compressor->fixed);
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
