// The one C++ translation unit of review-lsp: TOML through cpptoml (toml_read.h), turned into
// JSON for the C side. Every exception stops here; nothing C++ crosses the C boundary.
//
// cpptoml gives values but not the lines they were written on, and a configuration value's
// line is what `review-lsp config` and error messages show. The parser itself is asked: the
// document's prefixes are parsed line by line, and a key's line is the first line after the
// last prefix that parsed without it (blank and comment lines parse, so that is where the
// statement starts, also for a value spanning lines). The work is bounded by a byte budget;
// past it, lines are simply not known.
#include "engine/toml_read.h"

#include <cpptoml.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Work allowed for tracing lines, in bytes of prefixes parsed plus 64 per key walked. Tracing
// is quadratic; aiter's pyproject.toml with a configuration table at its end needs under 100
// KiB of this.
const size_t TRACE_BUDGET = 512u << 10;
// Opening brackets and braces a document may hold at most. cpptoml descends recursively into
// nested arrays and inline tables; every nesting level needs one of them, so this bounds the
// depth (and the stack) whatever the document says.
const size_t MAX_OPENERS = 2048;

// Owns a JSON value until released, so that an exception thrown half-way through a
// conversion frees what was built.
struct json_guard {
    json_t *p;
    explicit json_guard(json_t *v) : p(v) {}
    ~json_guard() { json_decref(p); }
    json_guard(const json_guard &) = delete;
    json_guard &operator=(const json_guard &) = delete;
    json_t *release()
    {
        json_t *v = p;
        p = nullptr;
        return v;
    }
};

// A value the C side cannot hold (a string that is not UTF-8), named by its key path.
struct bad_value {
    std::string path, why;
};

char *dup_string(const std::string &s)
{
    char *p = static_cast<char *>(malloc(s.size() + 1));
    if (!p)
        abort();
    memcpy(p, s.data(), s.size());
    p[s.size()] = '\0';
    return p;
}

json_t *to_json(const std::shared_ptr<cpptoml::base> &b, const std::string &path);

json_t *string_json(const std::string &s, const std::string &path)
{
    json_t *j = json_stringn(s.data(), s.size());
    if (!j)
        throw bad_value{path, "not valid UTF-8"};
    return j;
}

// A scalar: string, integer, float, boolean, or a date/time kept as its TOML text.
json_t *scalar_json(const std::shared_ptr<cpptoml::base> &b, const std::string &path)
{
    if (auto v = b->as<std::string>())
        return string_json(v->get(), path);
    if (auto v = b->as<int64_t>())
        return json_integer(static_cast<json_int_t>(v->get()));
    if (auto v = b->as<double>())
        return json_real(v->get());
    if (auto v = b->as<bool>())
        return json_boolean(v->get());
    std::ostringstream os;
    if (auto v = b->as<cpptoml::local_date>())
        os << v->get();
    else if (auto v = b->as<cpptoml::local_time>())
        os << v->get();
    else if (auto v = b->as<cpptoml::local_datetime>())
        os << v->get();
    else if (auto v = b->as<cpptoml::offset_datetime>())
        os << v->get();
    return string_json(os.str(), path);
}

json_t *table_json(const cpptoml::table &t, const std::string &path)
{
    json_guard obj(json_object());
    for (const auto &kv : t) {
        std::string sub = path.empty() ? kv.first : path + "." + kv.first;
        json_decref(string_json(kv.first, sub)); // a key must be UTF-8 too
        json_object_set_new(obj.p, kv.first.c_str(), to_json(kv.second, sub));
    }
    return obj.release();
}

json_t *to_json(const std::shared_ptr<cpptoml::base> &b, const std::string &path)
{
    if (b->is_table())
        return table_json(*b->as_table(), path);
    if (b->is_table_array()) {
        json_guard arr(json_array());
        size_t i = 0;
        for (const auto &t : b->as_table_array()->get())
            json_array_append_new(arr.p, table_json(*t, path + "[" + std::to_string(i++) + "]"));
        return arr.release();
    }
    if (b->is_array()) {
        json_guard arr(json_array());
        for (const auto &e : b->as_array()->get())
            json_array_append_new(arr.p, to_json(e, path));
        return arr.release();
    }
    return scalar_json(b, path);
}

// Every key path inside a table, for line tracing.
void key_paths(const cpptoml::table &t, const std::string &prefix, std::vector<std::string> &out)
{
    for (const auto &kv : t) {
        std::string p = prefix + kv.first;
        out.push_back(p);
        if (kv.second->is_table()) {
            key_paths(*kv.second->as_table(), p + ".", out);
        } else if (kv.second->is_table_array()) {
            size_t i = 0;
            for (const auto &sub : kv.second->as_table_array()->get()) {
                std::string ip = p + "[" + std::to_string(i++) + "]";
                out.push_back(ip);
                key_paths(*sub, ip + ".", out);
            }
        }
    }
}

std::shared_ptr<cpptoml::table> parse_text(const std::string &text)
{
    std::istringstream in(text);
    cpptoml::parser p(in);
    return p.parse();
}

// The table at a dotted path, nullptr when absent; throws when the path names something else.
std::shared_ptr<cpptoml::table> find_table(const std::shared_ptr<cpptoml::table> &root,
                                           const char *table)
{
    if (!table || !*table)
        return root;
    if (!root->contains_qualified(table))
        return nullptr;
    auto t = root->get_table_qualified(table);
    if (!t)
        throw cpptoml::parse_exception(std::string(table) + " is not a table");
    return t;
}

// The line each key path of the table starts on (see the comment at the top).
json_t *trace_lines(const std::string &text, const char *table)
{
    json_t *lines = json_object();
    std::vector<size_t> ends; // byte offset just past each line
    for (size_t i = 0; i < text.size(); i++)
        if (text[i] == '\n')
            ends.push_back(i + 1);
    if (ends.empty() || ends.back() != text.size())
        ends.push_back(text.size());
    // No key of the table can precede the first mention of its last name.
    std::string needle = table && *table ? table : "";
    needle = needle.substr(needle.rfind('.') == std::string::npos ? 0 : needle.rfind('.') + 1);
    size_t first = needle.empty() ? 0 : text.find(needle);
    size_t start = 0;
    while (first != std::string::npos && start < ends.size() && ends[start] <= first)
        start++;
    std::set<std::string> seen;
    size_t last_ok = start, spent = 0; // lines [0, last_ok) form a prefix that parses
    for (size_t k = start; k < ends.size() && spent <= TRACE_BUDGET; k++) {
        spent += ends[k];
        std::shared_ptr<cpptoml::table> t;
        try {
            t = find_table(parse_text(text.substr(0, ends[k])), table);
        } catch (const std::exception &) {
            continue; // inside a statement that spans lines
        }
        std::vector<std::string> paths;
        if (t)
            key_paths(*t, "", paths);
        spent += 64 * paths.size();
        for (const auto &p : paths)
            if (seen.insert(p).second)
                json_object_set_new(lines, p.c_str(), json_integer((json_int_t)last_ok + 1));
        last_ok = k + 1;
    }
    return lines;
}

// cpptoml says "... at line N": split that into the message and N.
void split_line(const std::string &what, char **cause, int *line)
{
    const std::string tag = " at line ";
    size_t at = what.rfind(tag);
    *line = 0;
    if (at != std::string::npos) {
        *line = atoi(what.c_str() + at + tag.size());
        *cause = dup_string(what.substr(0, at));
    } else {
        *cause = dup_string(what);
    }
}

size_t count_openers(const std::string &text)
{
    size_t n = 0;
    for (char c : text)
        n += c == '[' || c == '{';
    return n;
}

} // namespace

extern "C" int toml_read(const char *text, size_t len, const char *table, json_t **value,
                         json_t **lines, int *line, char **cause)
{
    *value = nullptr;
    *lines = nullptr;
    *line = 0;
    *cause = nullptr;
    json_guard l(nullptr);
    try {
        std::string doc(text, len);
        if (count_openers(doc) > MAX_OPENERS) {
            *cause = dup_string("more than " + std::to_string(MAX_OPENERS) +
                                " brackets and braces; not read (nesting is bounded)");
            return -1;
        }
        auto t = find_table(parse_text(doc), table);
        l.p = trace_lines(doc, table);
        *value = t ? table_json(*t, "") : nullptr;
        *lines = l.release();
        return 0;
    } catch (const bad_value &b) {
        json_t *at = l.p ? json_object_get(l.p, b.path.c_str()) : nullptr;
        *line = at ? (int)json_integer_value(at) : 0;
        *cause = dup_string(b.path + ": " + b.why);
    } catch (const std::exception &e) {
        split_line(e.what(), cause, line);
    } catch (...) {
        *cause = dup_string("unreadable TOML");
    }
    return -1;
}
