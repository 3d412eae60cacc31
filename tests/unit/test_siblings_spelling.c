/* Unit tests for the spellings the sibling-drift collector reads as one
 * (engine/collectors/siblings_spelling.c): float literals by value, FlyDSL type aliases, and
 * trailing zero defaults written out; and what stays a rewrite. */
#include "engine/collectors/siblings.h"
#include "tests/unit/unit.h"

/* True when two units' code keys the same. */
static bool same_key(const char *a, const char *b)
{
    char *ka = sib_canonical_key(a), *kb = sib_canonical_key(b);
    bool same = strcmp(ka, kb) == 0;
    free(ka);
    free(kb);
    return same;
}

/* A float literal's suffix, leading zero and exponent spelling are no change; its value is. */
TEST(float_literals_by_value)
{
    CHECK(same_key("r = x * 0.25", "r = x * 0.25f"));
    CHECK(same_key("r = x * 0.25", "r = x * .25F"));
    CHECK(same_key("eps = y > 1e-6 ? y : 1e-6", "eps = y > 1.0e-6f ? y : 1.0E-6"));
    CHECK(same_key("h = 1. / m", "h = 1.0f / m"));
    CHECK(!same_key("r = x * 0.25", "r = x * 0.5"));
    CHECK(!same_key("r = x * 0.25f", "r = x * 0.125f"));
}

/* Integers are left alone: `/ 2` and `/ 2.0` divide differently, `1ll` widens a shift, and a
 * hex literal or a digit inside a name is no float. */
TEST(integers_and_names_untouched)
{
    CHECK(!same_key("q = k / 2", "q = k / 2.0"));
    CHECK(!same_key("m = 1 << 40", "m = 1ll << 40"));
    CHECK(!same_key("v = 0x1f & w", "v = 0x1e & w"));
    CHECK(!same_key("t = buf_v2e1", "t = buf_v2e2"));
    char *k = sib_canonical_key("a = x.f32 + f16_1e3");
    CHECK_STR(k, "a=x.f32+f16_1e3");
    free(k);
}

/* FlyDSL's `T` aliases are the MLIR type classes, qualified `ir.` or not; a class reached
 * through another object is not. */
TEST(flydsl_type_aliases)
{
    CHECK(same_key("i = arith.index_cast(ir.IndexType.get(), v)", "i = arith.index_cast(T.index, v)"));
    CHECK(same_key("c = arith.constant(1e-6, type=F32Type.get())", "c = arith.constant(1.0e-6, type=T.f32)"));
    CHECK(same_key("w = arith.trunci(ir.IntegerType.get_signless(32), v)", "w = arith.trunci(T.i32, v)"));
    CHECK(!same_key("i = arith.index_cast(ir.IndexType.get(), v)", "i = arith.index_cast(T.i64, v)"));
    CHECK(!same_key("i = cast(my.IndexType.get(), v)", "i = cast(T.index, v)"));
}

/* Trailing zero arguments are defaults written out; anything else is a choice. */
TEST(defaults_written_out)
{
    CHECK(sib_defaults_written("store<T,V,C>(b,r,i);", "store<T,V,C,0>(b,r,i);", SYN_CPP));
    CHECK(sib_defaults_written("g(x,y);", "g(x,y,nullptr,false);", SYN_CPP));
    CHECK(sib_defaults_written("f(a)", "f(a,mask=None)", SYN_PYTHON));
    CHECK(!sib_defaults_written("store<T,V,C>(b,r,i);", "store<T,V,C,1>(b,r,i);", SYN_CPP));
    CHECK(!sib_defaults_written("g(x,y);", "g(x,y,z);", SYN_CPP));
    CHECK(!sib_defaults_written("g();", "g(0);", SYN_CPP));
    CHECK(!sib_defaults_written("f(a)", "f(a,mask=True)", SYN_PYTHON));
    CHECK(!sib_defaults_written("g(x,y);", "g(x,y);", SYN_CPP));
    CHECK(!sib_defaults_written("g(x,y);", "h(x,y,0);", SYN_CPP));
}

/* A trailing comma that follows another comma of its bracket is a formatter's; a one-item
 * tuple's comma is not, and neither is a comma between items. */
TEST(trailing_commas)
{
    CHECK(same_key("f( a, b, )", "f(a, b)"));
    CHECK(same_key("x = [1, 2, 3,]", "x = [1, 2, 3]"));
    CHECK(same_key("g(h(a, b,), c)", "g(h(a, b), c)"));
    CHECK(same_key("d = {k: v, j: w,}", "d = {k: v, j: w}"));
    CHECK(!same_key("t = (a,)", "t = (a)"));
    CHECK(!same_key("f(a, b)", "f(a, b, c)"));
    CHECK(!same_key("f(a, (b,))", "f(a, (b))"));
    char *k = sib_canonical_key("s = call(x, y,)) + z,]");
    CHECK_STR(k, "s=call(x,y))+z,]");
    free(k);
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(float_literals_by_value),
        UNIT_CASE(integers_and_names_untouched),
        UNIT_CASE(trailing_commas),
        UNIT_CASE(flydsl_type_aliases),
        UNIT_CASE(defaults_written_out),
    };
    return unit_main("siblings_spelling", cases, sizeof cases / sizeof cases[0]);
}
