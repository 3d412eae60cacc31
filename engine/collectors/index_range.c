/* Value ranges for the index-width collector: a name's spelling read as the axis it indexes,
 * counts or strides over, and that axis's size at production scale in bits (see
 * index_range.h). The name is cut into lower-case words (`kv_head_idx` → kv, head, idx;
 * `localHeadIdx` → local, head, idx; `stride_am` → stride, am); filler words (idx, num, cur,
 * off, ...) are skipped and the rightmost word that names an axis decides. A single letter
 * (`m`, `n`, `h`) names an axis only when it is not a prefix (`pid_m`, `i_h`, but not `k_ptr`,
 * the pointer of tensor k). */
#include <ctype.h>
#include <string.h>

#include "engine/collectors/index_range.h"

#define IR_MAX_WORDS 12
#define IR_WORD_LEN 24

/* Largest index on each axis, log2 (see index_range.h for the scale behind them). */
static const int extent_bits[IR_NROLES] = {
    [IR_UNKNOWN] = 14, [IR_ROW] = 17, [IR_BATCH] = 10, [IR_BLOCK] = 22, [IR_SLOT] = 26,
    [IR_EXPERT] = 9,
    [IR_HEAD] = 7, [IR_KV_HEAD] = 4, [IR_LANE] = 10, [IR_WARP] = 4, [IR_COLUMN] = 15,
    [IR_DIM] = 8, [IR_TILE] = 12, [IR_SMALL] = 4, [IR_VOCAB] = 18, [IR_SPATIAL] = 11,
};

/* Largest stride over each axis, log2: the elements inside one index of it. */
static const int stride_bits[IR_NROLES] = {
    [IR_UNKNOWN] = 15, [IR_ROW] = 15, [IR_BATCH] = 24, [IR_BLOCK] = 16, [IR_SLOT] = 12,
    [IR_EXPERT] = 24,
    [IR_HEAD] = 8, [IR_KV_HEAD] = 11, [IR_LANE] = 4, [IR_WARP] = 8, [IR_COLUMN] = 12,
    [IR_DIM] = 1, [IR_TILE] = 12, [IR_SMALL] = 12, [IR_VOCAB] = 1, [IR_SPATIAL] = 18,
};

typedef struct word_role {
    const char *word;
    ir_role role;
} word_role;

/* Whole words that name an axis (single letters are in letter_role). */
static const word_role words[] = {
    {"token", IR_ROW}, {"tokens", IR_ROW}, {"tok", IR_ROW}, {"toks", IR_ROW}, {"row", IR_ROW},
    {"ntok", IR_ROW}, {"ntoks", IR_ROW}, {"ntokens", IR_ROW},
    {"rows", IR_ROW}, {"seq", IR_ROW}, {"seqs", IR_ROW}, {"seqlen", IR_ROW},
    {"seqlens", IR_ROW}, {"pos", IR_ROW}, {"position", IR_ROW}, {"positions", IR_ROW},
    {"bos", IR_ROW}, {"eos", IR_ROW}, {"ctx", IR_ROW}, {"context", IR_ROW}, {"time", IR_ROW},
    {"batch", IR_BATCH}, {"batches", IR_BATCH}, {"bs", IR_BATCH}, {"req", IR_BATCH},
    {"reqs", IR_BATCH}, {"request", IR_BATCH}, {"requests", IR_BATCH},
    {"block", IR_BLOCK}, {"blocks", IR_BLOCK}, {"blk", IR_BLOCK}, {"blks", IR_BLOCK},
    {"page", IR_BLOCK}, {"pages", IR_BLOCK}, {"slot", IR_SLOT}, {"slots", IR_SLOT},
    {"physical", IR_BLOCK},
    {"expert", IR_EXPERT}, {"experts", IR_EXPERT}, {"eid", IR_EXPERT}, {"expt", IR_EXPERT},
    {"expts", IR_EXPERT},
    {"head", IR_HEAD}, {"heads", IR_HEAD}, {"nh", IR_HEAD}, {"nhead", IR_HEAD},
    {"nheads", IR_HEAD}, {"hq", IR_HEAD}, {"qh", IR_HEAD},
    {"kvh", IR_KV_HEAD}, {"hk", IR_KV_HEAD}, {"hkv", IR_KV_HEAD}, {"hg", IR_KV_HEAD},
    {"gqa", IR_KV_HEAD},
    {"lane", IR_LANE}, {"lanes", IR_LANE}, {"tid", IR_LANE}, {"tidx", IR_LANE},
    {"thread", IR_LANE}, {"threads", IR_LANE}, {"tx", IR_LANE}, {"ty", IR_LANE},
    {"tz", IR_LANE}, {"lid", IR_LANE}, {"thr", IR_LANE},
    {"warp", IR_WARP}, {"warps", IR_WARP}, {"wave", IR_WARP}, {"waves", IR_WARP},
    {"wid", IR_WARP}, {"wv", IR_WARP},
    {"col", IR_COLUMN}, {"cols", IR_COLUMN}, {"column", IR_COLUMN}, {"columns", IR_COLUMN},
    {"hidden", IR_COLUMN}, {"feature", IR_COLUMN}, {"features", IR_COLUMN},
    {"inter", IR_COLUMN}, {"intermediate", IR_COLUMN}, {"channel", IR_COLUMN},
    {"channels", IR_COLUMN}, {"model", IR_COLUMN},
    {"dim", IR_DIM}, {"dims", IR_DIM}, {"dk", IR_DIM}, {"dv", IR_DIM}, {"hd", IR_DIM},
    {"rope", IR_DIM}, {"rot", IR_DIM}, {"rotary", IR_DIM},
    {"tile", IR_TILE}, {"tiles", IR_TILE}, {"chunk", IR_TILE}, {"chunks", IR_TILE},
    {"iter", IR_TILE}, {"iters", IR_TILE}, {"it", IR_TILE}, {"step", IR_TILE},
    {"steps", IR_TILE}, {"stage", IR_TILE}, {"stages", IR_TILE}, {"kt", IR_TILE},
    {"ks", IR_TILE}, {"kb", IR_TILE}, {"sub", IR_TILE}, {"group", IR_TILE},
    {"groups", IR_TILE}, {"grp", IR_TILE}, {"vec", IR_TILE}, {"pack", IR_TILE},
    {"bucket", IR_TILE}, {"loop", IR_TILE}, {"nt", IR_TILE}, {"wm", IR_TILE},
    {"wn", IR_TILE}, {"mi", IR_TILE}, {"ni", IR_TILE}, {"ki", IR_TILE}, {"cta", IR_TILE},
    {"wg", IR_TILE}, {"mfma", IR_TILE}, {"wmma", IR_TILE}, {"mma", IR_TILE},
    {"topk", IR_SMALL}, {"gpu", IR_SMALL}, {"gpus", IR_SMALL}, {"rank", IR_SMALL},
    {"ranks", IR_SMALL}, {"world", IR_SMALL}, {"split", IR_SMALL}, {"splits", IR_SMALL},
    {"nsplit", IR_SMALL}, {"ngpus", IR_SMALL}, {"act", IR_SMALL}, {"active", IR_SMALL},
    {"vocab", IR_VOCAB},
    {NULL, IR_UNKNOWN},
};

/* Words that say nothing about the axis. */
static const char *const fillers[] = {
    "id", "idx", "index", "indices", "i", "j", "num", "cur", "curr", "current", "start", "end",
    "begin", "stop", "off", "offs", "offset", "offsets", "base", "ptr", "ptrs", "local",
    "global", "safe", "max", "min", "total", "count", "cnt", "size", "len", "length", "lo",
    "hi", "abs", "raw", "in", "out", "new", "old", "next", "prev", "my", "val", "value", "tmp",
    "arg", "int", "flat", "half", "real", "actual", "padded", "pad", "logical", "final", "last",
    "first", "this", "self", "cfg", "g", "x", "y", "z", "o", "a", "p", "q", "r", "w", NULL,
};

/* Words spelling an element offset or an address rather than an index. */
static const char *const offset_words[] = {
    "off", "offs", "offset", "offsets", "base", "ptr", "ptrs", "addr", "address", "byte",
    "bytes", "voff", "soff", "voffset", "soffset", "elem", "elems", NULL,
};

/* Words spelling a floating-point value. */
static const char *const float_words[] = {
    "f32", "f16", "bf16", "fp32", "fp16", "fp8", "float", "scale", "scales", "eps", "alpha",
    "beta", "rcp", "inv", "exp", "log", "sqrt", "mean", "var", "rms", "norm", "softmax",
    "logit", "logits", NULL,
};

/* The axis a single letter names in a domain: in attention n is the key/value sequence. */
static ir_role letter_role_in(char c, ir_domain domain)
{
    if (c == 'n' && domain == IR_DOMAIN_ATTN)
        return IR_ROW;
    switch (c) {
    case 'm': case 't': case 's': case 'l': return IR_ROW;
    case 'b': return IR_BATCH;
    case 'e': return IR_EXPERT;
    case 'h': return IR_HEAD;
    case 'n': case 'k': case 'c': return IR_COLUMN;
    case 'd': case 'v': return IR_DIM;
    default: return IR_UNKNOWN;
    }
}

/* True when w is one of list. */
static bool in_list(const char *w, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(w, list[i]) == 0)
            return true;
    return false;
}

/* The axis a single letter names (m, t, s, l: rows; b: batch; ...), or IR_UNKNOWN. */
static ir_role letter_role(char c)
{
    return letter_role_in(c, IR_DOMAIN_DEFAULT);
}

/* In a convolution: the axis a word or letter names (IR_NROLES when the word is not one of
 * the convolution's own spellings). */
static ir_role conv_role(const char *w)
{
    static const char *const spatial[] = {
        "ih", "iw", "oh", "ow", "kh", "kw", "dh", "dw", "dil", "dilation", "pad", "height",
        "width", "hw", "spatial", "pixel", "pix", "h", "w", "p", "q", "r", "s", "d", NULL,
    };
    if (!strcmp(w, "n") || !strcmp(w, "b"))
        return IR_BATCH;
    if (!strcmp(w, "c") || !strcmp(w, "k") || !strcmp(w, "kout") || !strcmp(w, "cin") ||
        !strcmp(w, "cout"))
        return IR_COLUMN;
    if (in_list(w, spatial))
        return IR_SPATIAL;
    return IR_NROLES;
}

/* The axis a whole word names, or IR_UNKNOWN. */
static ir_role word_role_of(const char *w)
{
    for (int i = 0; words[i].word; i++)
        if (strcmp(w, words[i].word) == 0)
            return words[i].role;
    return IR_UNKNOWN;
}

typedef struct ir_words {
    char w[IR_MAX_WORDS][IR_WORD_LEN];
    int n;
} ir_words;

/* Append one word (lower-cased, truncated) unless the list is full. */
static void push_word(ir_words *ws, const char *s, size_t len)
{
    if (!len || ws->n >= IR_MAX_WORDS)
        return;
    if (len >= IR_WORD_LEN)
        len = IR_WORD_LEN - 1;
    for (size_t i = 0; i < len; i++)
        ws->w[ws->n][i] = (char)tolower((unsigned char)s[i]);
    ws->w[ws->n][len] = '\0';
    ws->n++;
}

/* Cut a name into words at underscores and other punctuation, lower→upper case changes, the
 * last capital of a capital run followed by a lower-case letter (KVHeads → KV, Heads), and
 * letter/digit changes. */
static void split_words(const char *name, ir_words *ws)
{
    ws->n = 0;
    size_t len = strlen(name), start = 0;
    for (size_t i = 0; i <= len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (i == len || !isalnum(c)) {
            push_word(ws, name + start, i - start);
            start = i + 1;
            continue;
        }
        if (i == start)
            continue;
        unsigned char p = (unsigned char)name[i - 1];
        unsigned char nx = i + 1 < len ? (unsigned char)name[i + 1] : 0;
        bool cut = (islower(p) && isupper(c)) || (isdigit(p) != 0) != (isdigit(c) != 0) ||
                   (isupper(p) && isupper(c) && nx && islower(nx));
        if (cut) {
            push_word(ws, name + start, i - start);
            start = i;
        }
    }
}

/* True when the word is alphabetic (not a number). */
static bool alpha_word(const char *w)
{
    return isalpha((unsigned char)w[0]) != 0;
}

/* The axis a stride spells: the rightmost axis after the stride word (`stride_o_h` → head,
 * `stride_am` → rows, `stride_dwe` → experts), else before it (`kv_cache_token_stride`);
 * a lone tensor letter (`stride_c`) names no axis. */
static ir_role stride_axis(const ir_words *ws, int at, ir_domain domain)
{
    bool conv = domain == IR_DOMAIN_CONV;
    for (int i = ws->n - 1; i > at; i--) {
        const char *w = ws->w[i];
        if (conv && conv_role(w) != IR_NROLES)
            return conv_role(w);
        if (isdigit((unsigned char)w[0]))
            return w[0] == '0' ? IR_ROW : IR_DIM;
        ir_role r = word_role_of(w);
        if (r != IR_UNKNOWN)
            return r;
        size_t l = strlen(w);
        /* a lone letter after the stride word names an axis, except the tensor letters
         * of a GEMM (`stride_a`, `stride_b`, `stride_c`: a leading dimension); after a
         * tensor name (`stride_x_c`, `stride_q_b`) any axis letter counts */
        if (l == 1 && strchr(i > at + 1 ? "mtslhenkcbd" : "mtslhenk", w[0]))
            return letter_role_in(w[0], domain);
        /* `am`, `bk`, `xm` (tensor letter + axis letter), `dyt`, `dwe` (a gradient) */
        if ((l == 2 || (l == 3 && w[0] == 'd')) && strchr("mtsbhdenk", w[l - 1]))
            return letter_role_in(w[l - 1], domain);
    }
    for (int i = at - 1; i >= 0; i--) {
        ir_role r = word_role_of(ws->w[i]);
        if (r != IR_UNKNOWN)
            return r;
    }
    return IR_UNKNOWN;
}

/* A tile-qualified axis letter (`pid_m`, `BLOCK_N`, `tile_k`, `n_block_idx`, `BM`): returns
 * true and sets *bits for a tile size (compile-time) or a tile index (runtime). */
static bool tile_of_axis(const ir_words *ws, const char *name, bool compile_time, int *bits)
{
    size_t nl = strlen(name);
    if (nl == 2 && (name[0] == 'B' || name[0] == 'b') && strchr("MNKTVDHCSQmnk", name[1]) &&
        (compile_time || isupper((unsigned char)name[1]))) {
        *bits = 8;
        return true;
    }
    if (compile_time && ws->n == 2 && !strcmp(ws->w[0], "b") && strlen(ws->w[1]) == 1 &&
        strchr("mnkq", ws->w[1][0])) {
        *bits = 8; /* B_M, B_N */
        return true;
    }
    bool qual = false, tile_word = false, count = false;
    ir_role axis = IR_UNKNOWN;
    for (int i = 0; i < ws->n; i++) {
        const char *w = ws->w[i];
        if (!strcmp(w, "tile") || !strcmp(w, "mfma") || !strcmp(w, "wmma") || !strcmp(w, "mma") ||
            !strcmp(w, "vec") || !strcmp(w, "pack"))
            qual = tile_word = true;
        else if (!strcmp(w, "block") || !strcmp(w, "blk") || !strcmp(w, "pid") ||
                 !strcmp(w, "blocks") || !strcmp(w, "blks") ||
                 !strcmp(w, "bx") || !strcmp(w, "by") || !strcmp(w, "cta"))
            qual = true;
        else if (!strcmp(w, "tiles"))
            qual = count = true;
        else if (strlen(w) == 1 && strchr("mnkqcdwh", w[0]))
            axis = w[0] == 'q' ? IR_ROW : w[0] == 'w' ? IR_COLUMN : letter_role(w[0]);
    }
    if (!qual || axis == IR_UNKNOWN)
        return false;
    if (compile_time && !count) {
        *bits = 8;
    } else {
        /* a tile index (pid_m) or a count of tiles (num_tiles_n): the axis over >= 32-64 */
        int b = extent_bits[axis] - (count ? 6 : 5);
        *bits = b < 4 ? 4 : b;
    }
    return true;
}

/* The size of one unit of an axis (`page_size`, `head_size`, `WARP_SIZE`): true with *bits. */
static bool unit_size(const ir_words *ws, int *bits)
{
    for (int i = 1; i < ws->n; i++) {
        if (strcmp(ws->w[i], "size") != 0)
            continue;
        const char *u = ws->w[i - 1];
        if (!strcmp(u, "page") || !strcmp(u, "block") || !strcmp(u, "blk") ||
            !strcmp(u, "chunk")) {
            *bits = 10;
            return true;
        }
        if (!strcmp(u, "group") || !strcmp(u, "tile") || !strcmp(u, "head") ||
            !strcmp(u, "warp") || !strcmp(u, "wave") || !strcmp(u, "cta") || !strcmp(u, "wg")) {
            *bits = 8;
            return true;
        }
        if (!strcmp(u, "vec") || !strcmp(u, "pack") || !strcmp(u, "elem")) {
            *bits = 4;
            return true;
        }
    }
    return false;
}

/* The axis of a plain (not stride) name: the rightmost axis word, skipping fillers; a single
 * letter counts unless it is the first of several words; else the first word's letter
 * (`N_OUT`, `T_flat`). */
static ir_role plain_axis(const ir_words *ws, ir_domain domain, bool *letter)
{
    *letter = false;
    bool conv = domain == IR_DOMAIN_CONV;
    int nalpha = 0, first = -1;
    for (int i = 0; i < ws->n; i++)
        if (alpha_word(ws->w[i])) {
            nalpha++;
            if (first < 0)
                first = i;
        }
    for (int i = 0; i < ws->n - 1; i++)
        if (!strcmp(ws->w[i], "kv") && (!strcmp(ws->w[i + 1], "head") ||
                                        !strcmp(ws->w[i + 1], "heads")))
            return IR_KV_HEAD;
    for (int i = 0; i < ws->n; i++) {
        /* a lane or a warp of something (`lane_in_row`, `warp_row`) is a lane or a warp */
        ir_role r = word_role_of(ws->w[i]);
        if (r == IR_LANE || r == IR_WARP)
            return r;
    }
    for (int i = ws->n - 1; i >= 0; i--) {
        const char *w = ws->w[i];
        if (!alpha_word(w))
            continue;
        if (conv && conv_role(w) != IR_NROLES) {
            *letter = strlen(w) == 1;
            return conv_role(w);
        }
        ir_role r = word_role_of(w);
        if (r == IR_DIM && (!strcmp(w, "dim") || !strcmp(w, "dims")) && i > 0 &&
            strcmp(ws->w[i - 1], "head") != 0 && word_role_of(ws->w[i - 1]) != IR_UNKNOWN)
            continue; /* `inter_dim`, `hidden_dim`: the size of that axis, not a head dim */
        if (r != IR_UNKNOWN)
            return r;
        if (strlen(w) == 1 && (nalpha == 1 || i != first) && letter_role(w[0]) != IR_UNKNOWN) {
            *letter = true;
            return letter_role_in(w[0], domain);
        }
        /* `offs_am`, `offs_bn`: a tensor letter and an axis letter */
        if (strlen(w) == 2 && i != first && strchr("abcxyoqkv", w[0]) && strchr("mnk", w[1])) {
            *letter = true;
            return letter_role_in(w[1], domain);
        }
        if (in_list(w, fillers))
            continue;
    }
    if (first >= 0 && strlen(ws->w[first]) == 1) {
        *letter = true;
        return letter_role_in(ws->w[first][0], domain);
    }
    return IR_UNKNOWN;
}

void ir_classify(const char *name, bool compile_time, ir_domain domain, ir_name *out)
{
    bool conv = domain == IR_DOMAIN_CONV;
    memset(out, 0, sizeof *out);
    while (*name == '_')
        name++;
    ir_words ws;
    split_words(name, &ws);
    int stride_at = -1;
    for (int i = 0; i < ws.n; i++) {
        const char *w = ws.w[i];
        if (!strcmp(w, "lds") || !strcmp(w, "smem") || !strcmp(w, "shared") || !strcmp(w, "shm"))
            out->lds = true;
        if (!strcmp(w, "ptr") || !strcmp(w, "ptrs") || !strcmp(w, "pointer"))
            out->pointer = true;
        if (in_list(w, offset_words))
            out->offsetish = true;
        if (in_list(w, float_words))
            out->floatish = true;
        /* f32, bf16, fp8: cut into a letter word and a number */
        if (i + 1 < ws.n && (!strcmp(w, "f") || !strcmp(w, "bf") || !strcmp(w, "fp")) &&
            (!strcmp(ws.w[i + 1], "32") || !strcmp(ws.w[i + 1], "16") ||
             !strcmp(ws.w[i + 1], "8")))
            out->floatish = true;
        if (stride_at < 0 && (!strcmp(w, "stride") || !strcmp(w, "strides") ||
                              !strcmp(w, "pitch") || !strcmp(w, "ld") || !strcmp(w, "lda") ||
                              !strcmp(w, "ldb") || !strcmp(w, "ldc") || !strcmp(w, "ldd")))
            stride_at = i;
    }
    if (out->offsetish || out->pointer || stride_at >= 0)
        out->floatish = false;
    bool upper = false, lower = false;
    for (const char *p = name; *p; p++)
        upper |= isupper((unsigned char)*p) != 0, lower |= islower((unsigned char)*p) != 0;
    out->size_like = (upper && !lower) || (ws.n > 1 && (!strcmp(ws.w[0], "num") ||
                     !strcmp(ws.w[0], "n") || !strcmp(ws.w[0], "max") ||
                     !strcmp(ws.w[ws.n - 1], "size") ||
                     !strcmp(ws.w[ws.n - 1], "len") || !strcmp(ws.w[ws.n - 1], "dim")));
    if (conv && stride_at == 0 && ws.n == 2 && strlen(ws.w[1]) == 1 && strchr("hwd", ws.w[1][0])) {
        /* `stride_h`, `stride_w`: the convolution's step, not a memory stride */
        out->role = IR_SMALL;
        out->bits = 2;
        out->known = true;
        return;
    }
    if (stride_at >= 0) {
        out->stride = out->known = true;
        out->role = stride_axis(&ws, stride_at, domain);
        out->bits = stride_bits[out->role];
        if (conv && out->role != IR_BATCH && out->bits > 20)
            out->bits = 20; /* a stride inside one image */
        for (int i = 0; i < ws.n; i++) {
            if (!strcmp(ws.w[i], "table") || !strcmp(ws.w[i], "mapping"))
                out->bits = 12; /* the row of a block table: blocks of one sequence */
            if (strstr(ws.w[i], "scale") || !strcmp(ws.w[i], "sf") || !strcmp(ws.w[i], "mx") ||
                !strcmp(ws.w[i], "amax") || !strcmp(ws.w[i], "bias"))
                out->bits = out->bits < 8 ? out->bits : 8; /* a row of scales is short */
        }
        return;
    }
    int bits;
    for (int i = 1; i + 1 < ws.n; i++)
        if (!strcmp(ws.w[i], "per")) {
            /* X_PER_Y: how many X fit in one Y (segments per sequence, rows per batch) */
            out->role = IR_TILE;
            out->bits = compile_time ? 8 : 12;
            out->known = true;
            return;
        }
    for (int i = 0; i + 1 < ws.n; i++)
        if ((!strcmp(ws.w[i], "seq") || !strcmp(ws.w[i], "sequence")) &&
            (!strcmp(ws.w[i + 1], "idx") || !strcmp(ws.w[i + 1], "id") ||
             !strcmp(ws.w[i + 1], "index") || !strcmp(ws.w[i + 1], "no"))) {
            /* which sequence of the batch */
            out->role = IR_BATCH;
            out->bits = extent_bits[IR_BATCH];
            out->known = true;
            return;
        }
    bool letters = ws.n >= 2;
    for (int i = 0; i < ws.n; i++)
        letters &= strlen(ws.w[i]) == 1 || !alpha_word(ws.w[i]);
    if (compile_time && letters && !conv) {
        /* `O_E_M`, `T_N`: a build-time tile shape spelled in letters */
        out->role = IR_TILE;
        out->bits = 8;
        out->known = true;
        return;
    }
    if (tile_of_axis(&ws, name, compile_time, &bits) || unit_size(&ws, &bits)) {
        out->role = IR_TILE;
        out->bits = bits;
        out->known = true;
        return;
    }
    out->role = plain_axis(&ws, domain, &out->by_letter);
    if (out->role == IR_BLOCK && ws.n > 1 && !strcmp(ws.w[0], "max")) {
        /* `max_blks`, `max_num_blocks_per_seq`: the blocks of one sequence */
        out->role = IR_TILE;
        out->bits = 12;
        out->known = true;
        return;
    }
    if (conv && out->role == IR_SPATIAL)
        out->offsetish = false; /* `base_ih`: an input row, not an element offset */
    out->known = out->role != IR_UNKNOWN;
    if (compile_time && (out->role == IR_BLOCK || out->role == IR_TILE)) {
        /* a compile-time block or tile is a tile size, not a cache block */
        out->role = IR_TILE;
        out->bits = 8;
        return;
    }
    out->bits = out->role == IR_UNKNOWN && compile_time ? 10 : extent_bits[out->role];
}

bool ir_name_says_lds(const char *name)
{
    ir_name n;
    ir_classify(name, false, IR_DOMAIN_DEFAULT, &n);
    return n.lds;
}

ir_domain ir_domain_of_path(const char *path)
{
    static const char *const attn[] = {"attention", "attn", "mha", "mla", "paged", "pa_decode",
                                       "pa_prefill", "flash", "decode_sparse", "gated_delta",
                                       "gdn", "kda", NULL};
    for (const char *p = strstr(path, "conv"); p; p = strstr(p + 4, "conv"))
        if (p[4] != 'e' && strncmp(p + 4, "1d", 2) != 0) /* not convert, not causal conv1d */
            return IR_DOMAIN_CONV;
    for (int i = 0; attn[i]; i++)
        if (strstr(path, attn[i]))
            return IR_DOMAIN_ATTN;
    return IR_DOMAIN_DEFAULT;
}

int ir_extent_bits(ir_role role)
{
    return role >= 0 && role < IR_NROLES ? extent_bits[role] : extent_bits[IR_UNKNOWN];
}

const char *ir_phrase(ir_role role, bool stride)
{
    static const char *const index_phrase[IR_NROLES] = {
        [IR_UNKNOWN] = "a runtime value", [IR_ROW] = "a token/row index",
        [IR_BATCH] = "a batch index", [IR_BLOCK] = "a KV-cache block index",
        [IR_SLOT] = "a KV-cache slot (pool row) index",
        [IR_EXPERT] = "an expert index", [IR_HEAD] = "a head index",
        [IR_KV_HEAD] = "a KV-head index", [IR_LANE] = "a lane index", [IR_WARP] = "a warp index",
        [IR_COLUMN] = "a column size or index", [IR_DIM] = "a head-dim size or index",
        [IR_TILE] = "a tile size or index", [IR_SMALL] = "a small count",
        [IR_VOCAB] = "a vocabulary size or index", [IR_SPATIAL] = "a position in an image",
    };
    static const char *const stride_phrase[IR_NROLES] = {
        [IR_UNKNOWN] = "a stride", [IR_ROW] = "a row stride", [IR_BATCH] = "a batch stride",
        [IR_BLOCK] = "a block stride", [IR_SLOT] = "a slot stride",
        [IR_EXPERT] = "an expert stride",
        [IR_HEAD] = "a head stride", [IR_KV_HEAD] = "a KV-head stride",
        [IR_LANE] = "a lane stride", [IR_WARP] = "a warp stride",
        [IR_COLUMN] = "a column stride", [IR_DIM] = "an inner stride",
        [IR_TILE] = "a tile stride", [IR_SMALL] = "a stride", [IR_VOCAB] = "an inner stride",
        [IR_SPATIAL] = "an image-row stride",
    };
    if (role < 0 || role >= IR_NROLES)
        role = IR_UNKNOWN;
    return stride ? stride_phrase[role] : index_phrase[role];
}
