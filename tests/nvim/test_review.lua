-- Headless Neovim test of the review_lsp plugin (editors/nvim) against the real server, run by
-- tests/suites/nvim.sh on each Neovim release it has (0.7, 0.10, 0.12): opens changed files of
-- the fixture repository (tests/e2e/fixture.sh), waits for the diagnostics and checks rule ids,
-- lines and severities (vim.diagnostic.get), that `K` shows the rule of the finding under the
-- cursor (findings first: the rule, its evidence — the D11 layout table as the float renders
-- it — one line of families), :ReviewEvidence's full evidence, that a key the user
-- mapped in on_attach is left alone, :ReviewRule and the "Open rule" code action opening the
-- rules file at the rule's line, "Go to evidence" offering both places of a struct finding,
-- the :ReviewChecklist scratch buffer, edits moving and clearing a finding, live settings,
-- :ReviewRescan, :ReviewDerived and :checkhealth review_lsp. Prints one
-- "PASS nvim.vX.Y.NAME" / "FAIL nvim.vX.Y.NAME" line per check, then "DONE". Environment:
-- REVIEW_LSP_BIN (the server), FIXTURE (the repository), NONGIT (a file outside any
-- repository), RULES_COUNT (the rules in the fixture's rules file).
local FIX = assert(os.getenv("FIXTURE"), "FIXTURE unset")
local BIN = assert(os.getenv("REVIEW_LSP_BIN"), "REVIEW_LSP_BIN unset")
local NONGIT = os.getenv("NONGIT")
local RULES_COUNT = tonumber(os.getenv("RULES_COUNT") or "0")
local WAIT = tonumber(os.getenv("NVIM_TEST_WAIT_MS") or "15000")
local V = vim.version()
local TAG = string.format("v%d.%d", V.major, V.minor)

local out = io.stdout
local function say(s) out:write(s .. "\n"); out:flush() end
local function pass(name) say("PASS nvim." .. TAG .. "." .. name) end
local function fail(name, why) say("FAIL nvim." .. TAG .. "." .. name); io.stderr:write("  nvim." .. TAG .. "." .. name .. ": " .. tostring(why) .. "\n") end
local function check(name, cond, why)
  if cond then pass(name) else fail(name, why) end
  return cond
end

-- Messages would land on stdout in the middle of PASS lines: keep them on stderr.
local notes = {}
vim.notify = function(msg, level) notes[#notes + 1] = msg; io.stderr:write("notify: " .. tostring(msg) .. "\n") end

-- A real configuration has filetype detection on (Neovim 0.11+ attaches by filetype).
vim.cmd("filetype on")

-- The user's on_attach maps `gra` in each buffer: the plugin must not replace it.
local user_gra = 0
local rl = require("review_lsp")
rl.setup({
  server_path = BIN,
  settings = { severity = { D11 = "error" }, debounceMs = 50, logLevel = "log", rulesPath = "docs/review-rules.md" },
  on_attach = function(_, bufnr)
    vim.keymap.set("n", "gra", function() user_gra = user_gra + 1 end, { buffer = bufnr })
  end,
})

-- The text of the floating windows open now (hover shows one).
local function float_text()
  local t = {}
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= "" then
      local b = vim.api.nvim_win_get_buf(w)
      table.insert(t, table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n"))
    end
  end
  return table.concat(t, "\n")
end
local function close_floats()
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= "" then pcall(vim.api.nvim_win_close, w, true) end
  end
end

-- True when, for each pattern, some line of text that starts a Markdown table row ("|")
-- matches it.
local function table_rows(text, patterns)
  for _, pat in ipairs(patterns) do
    local found = false
    for line in (text .. "\n"):gmatch("([^\n]*)\n") do
      if line:find("|", 1, true) and line:find(pat) then found = true; break end
    end
    if not found then return false end
  end
  return true
end

local function code_of(d)
  return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
end
local function find(bufnr, id)
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if code_of(d) == id and d.source == "review" and d.severity ~= vim.diagnostic.severity.HINT then
      return d
    end
  end
  return nil
end
local function describe(bufnr)
  local t = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(t, string.format("%s@%d:%d sev=%d %s", tostring(code_of(d)), d.lnum, d.col, d.severity, d.message:sub(1, 60)))
  end
  return table.concat(t, " | ")
end
-- Open a file of the fixture and wait until the server is attached to it (Neovim 0.11+
-- attaches on a later loop turn; the pushed diagnostics may be there before).
local function open(rel)
  vim.cmd("edit " .. vim.fn.fnameescape(FIX .. "/" .. rel))
  local b = vim.api.nvim_get_current_buf()
  vim.wait(WAIT, function() local c = rl.client(b); return c ~= nil and c.attached_buffers[b] ~= nil end, 20)
  return b
end
-- The 1-based line of a rule's heading in a rules file.
local function rule_line(path, id)
  local n = 0
  for line in io.lines(path) do
    n = n + 1
    if line:find("**" .. id .. " — ", 1, true) == 1 or line:find("| " .. id .. " — ", 1, true) == 1 then
      return n
    end
  end
  return nil
end

local function run()
  local t0 = vim.loop.hrtime()
  -- 1. attach and first diagnostics (B8 on gather.py:5, col 16)
  local g = open("aiter/ops/flydsl/kernels/gather.py")
  local attached = vim.wait(WAIT, function() return rl.client(g) ~= nil end, 20)
  check("attach", attached, "no review_lsp client attached to gather.py")
  local got = vim.wait(WAIT, function() return find(g, "B8") ~= nil end, 20)
  local b8 = find(g, "B8")
  check("b8.present", got, "no B8 diagnostic on gather.py: " .. describe(g))
  say(string.format("# first diagnostics after %.0f ms", (vim.loop.hrtime() - t0) / 1e6))
  if b8 then
    check("b8.position", b8.lnum == 4 and b8.col == 15, string.format("B8 at %d:%d, want 4:15", b8.lnum, b8.col))
    check("b8.severity", b8.severity == vim.diagnostic.severity.WARN, "B8 severity " .. b8.severity)
    check("b8.message", b8.message:find("create_buffer_resource(src)", 1, true) ~= nil, b8.message)
    local href = b8.user_data and b8.user_data.lsp and b8.user_data.lsp.codeDescription and b8.user_data.lsp.codeDescription.href
    check("b8.href", href and href:match("^file:.*rules%.md") ~= nil, "codeDescription.href " .. tostring(href))
  end
  local hint = false
  for _, d in ipairs(vim.diagnostic.get(g)) do
    if d.severity == vim.diagnostic.severity.HINT and d.message:find("derives", 1, true) then hint = true end
  end
  check("derived-hint", hint, "no derived-families hint on gather.py: " .. describe(g))

  -- 2. hover on the B8 line shows the rule's text
  local hover = vim.lsp.buf_request_sync(g, "textDocument/hover",
    { textDocument = { uri = vim.uri_from_bufnr(g) }, position = { line = 4, character = 20 } }, WAIT)
  local htext = ""
  for _, r in pairs(hover or {}) do
    local c = r.result and r.result.contents
    if type(c) == "table" then htext = htext .. (c.value or vim.inspect(c)) elseif type(c) == "string" then htext = htext .. c end
  end
  check("hover.rule-title", htext:find("FlyDSL buffer or descriptor bound not tied to the tensor's real extent (repository copy)", 1, true) ~= nil, htext:sub(1, 300))
  check("hover.rule-text", htext:find("the hardware then trusts a record count", 1, true) ~= nil, htext:sub(1, 300))

  -- 3. the other two findings, on files opened now (D4 softmax.py:17, D11 kargs.h:6 as error)
  local s = open("aiter/ops/triton/softmax.py")
  vim.wait(WAIT, function() return find(s, "D4") ~= nil end, 20)
  local d4 = find(s, "D4")
  check("d4.line", d4 and d4.lnum == 16, "D4: " .. describe(s))
  check("d4.severity", d4 and d4.severity == vim.diagnostic.severity.WARN, "D4: " .. describe(s))
  check("d4.quotes-deleted", d4 and d4.message:find("assert x.is_contiguous()", 1, true) ~= nil, "D4: " .. describe(s))
  local k = open("csrc/include/kargs.h")
  vim.wait(WAIT, function() return find(k, "D11") ~= nil end, 20)
  local d11 = find(k, "D11")
  check("d11.line", d11 and d11.lnum == 5, "D11: " .. describe(k))
  check("d11.severity-setting", d11 and d11.severity == vim.diagnostic.severity.ERROR, "D11 (severity setting error): " .. describe(k))
  local rel = d11 and d11.user_data and d11.user_data.lsp and d11.user_data.lsp.relatedInformation
  check("d11.related", rel and #rel == 2, "relatedInformation: " .. vim.inspect(rel))

  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local n_clients = 0
  for _, c in ipairs(get()) do if c.name == "review_lsp" then n_clients = n_clients + 1 end end
  check("one-client-per-repository", n_clients == 1, n_clients .. " review_lsp clients for three files of one repository")

  -- 3b. `K` on the D11 line shows D11's text, its evidence and one line naming the families;
  -- no family's rule text (findings first)
  vim.api.nvim_win_set_cursor(0, { 6, 4 })
  close_floats()
  vim.cmd("normal K")
  local shown_k = vim.wait(WAIT, function() return float_text():find("D11", 1, true) ~= nil end, 20)
  local ktext = float_text()
  check("K.shows-rule", shown_k and ktext:find("Struct field added or removed with a pinned ABI", 1, true) ~= nil, ktext:sub(1, 400))
  check("K.evidence", ktext:find("kargs.h:11", 1, true) ~= nil and ktext:find("kargs.h:12", 1, true) ~= nil, ktext:sub(-600))
  check("K.family-summary", ktext:find("Derived for this file", 1, true) ~= nil and ktext:find("modified-kernel", 1, true) ~= nil
    and ktext:find("A1 —", 1, true) == nil and #ktext < 3072, #ktext .. " bytes: " .. ktext:sub(-400))
  -- the float renders the evidence Markdown: the layout table's header, the added field's row
  -- and the shifted one's (Markdown escapes and bold marks as the Neovim release shows them)
  check("K.evidence-table", table_rows(ktext, { "field.*type.*base offset.*head offset.*size",
    "k\\?_scale\\?_ptr.*|.*|%s*8%s*|.*added", "num\\?_heads.*|%s*16%s*|%s*24%s*|.*shifted %+8" }), ktext)
  close_floats()
  -- :ReviewEvidence on that line: the full evidence (the table and the pins) in a scratch buffer
  local src_win = vim.api.nvim_get_current_win()
  vim.cmd("ReviewEvidence")
  local opened_ev = vim.wait(WAIT, function() return vim.api.nvim_buf_get_name(0):find("review://evidence", 1, true) ~= nil end, 20)
  local ev = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
  check("evidence.opens", opened_ev and vim.bo.filetype == "markdown", vim.api.nvim_buf_get_name(0))
  check("evidence.table-and-pins", table_rows(ev, { "k\\?_scale\\?_ptr.*added", "offsetof%(paged\\?_kargs, num\\?_heads%).*|%s*16%s*|%s*24%s*|" }), ev)
  if vim.api.nvim_get_current_win() ~= src_win then vim.cmd("close") end
  -- the user's own `gra` (mapped in on_attach) is left alone
  vim.cmd("normal gra")
  check("keymap.user-mapping-kept", user_gra == 1, "user gra ran " .. user_gra .. " times; maparg " .. vim.inspect(vim.fn.maparg("gra", "n", false, true)))

  -- 4. :ReviewRule B8 opens the rules file at the rule's line
  vim.cmd("buffer " .. g)
  vim.cmd("ReviewRule B8")
  local opened = vim.wait(WAIT, function() return vim.api.nvim_buf_get_name(0):match("rules%.md$") ~= nil end, 20)
  local rules_path = vim.api.nvim_buf_get_name(0)
  if check("open-rule.command.file", opened and rules_path == FIX .. "/docs/review-rules.md", "current buffer " .. rules_path) then
    local want = rule_line(rules_path, "B8")
    local line = vim.api.nvim_win_get_cursor(0)[1]
    check("open-rule.command.line", want and line == want, "cursor line " .. line .. ", B8 is on " .. tostring(want))
    check("open-rule.command.text", vim.api.nvim_get_current_line():find("**B8 — ", 1, true) == 1, vim.api.nvim_get_current_line())
  end
  -- a housekeeping rule (a table row)
  vim.cmd("buffer " .. g)
  vim.cmd("ReviewRule HK3")
  vim.wait(WAIT, function() return vim.api.nvim_buf_get_name(0):match("rules%.md$") ~= nil end, 20)
  check("open-rule.table-row", vim.api.nvim_get_current_line():find("| HK3 — ", 1, true) == 1, vim.api.nvim_get_current_line())
  -- :ReviewRule with no argument: a vim.ui.select of every rule
  vim.cmd("buffer " .. g)
  local offered = {}
  local sel = vim.ui.select
  vim.ui.select = function(items, opts, on_choice)
    for _, it in ipairs(items) do offered[#offered + 1] = opts.format_item(it) end
    for _, it in ipairs(items) do if it.id == "D4" then return on_choice(it) end end
    on_choice(nil)
  end
  vim.cmd("ReviewRule")
  vim.wait(WAIT, function() return vim.api.nvim_buf_get_name(0):match("rules%.md$") ~= nil end, 20)
  vim.ui.select = sel
  check("open-rule.picker", #offered == RULES_COUNT and #offered > 60
    and vim.api.nvim_get_current_line():find("**D4 — ", 1, true) == 1, #offered .. " offered; line " .. vim.api.nvim_get_current_line())
  local comp = vim.fn.getcompletion("ReviewRule B", "cmdline")
  check("open-rule.complete", vim.tbl_contains(comp, "B8") and vim.tbl_contains(comp, "B1"), vim.inspect(comp))

  -- 5. the "Open rule D11 ..." code action, handled client-side (no window/showDocument on 0.7)
  vim.cmd("buffer " .. k)
  vim.api.nvim_win_set_cursor(0, { 6, 0 })
  local titles = {}
  local orig_select = vim.ui.select
  vim.ui.select = function(items, opts, on_choice)
    local pick
    for i, it in ipairs(items) do
      local a = it[2] or it.action or it
      titles[#titles + 1] = a.title
      if not pick and a.title and a.title:find("^Open rule D11") then pick = i end
    end
    on_choice(pick and items[pick], pick)
  end
  vim.lsp.buf.code_action()
  local moved = vim.wait(WAIT, function() return vim.api.nvim_buf_get_name(0):match("rules%.md$") ~= nil end, 20)
  vim.ui.select = orig_select
  check("open-rule.code-action", moved and vim.api.nvim_get_current_line():find("**D11 — ", 1, true) == 1,
    "actions " .. table.concat(titles, "; ") .. " / line " .. vim.api.nvim_get_current_line())
  check("code-action.four", #titles <= 4 and titles[1] and titles[1]:find("^Open rule D11") ~= nil, table.concat(titles, "; "))
  -- "Go to evidence" carries both pinning assertions: a choice, the second one opens
  vim.cmd("buffer " .. k)
  vim.api.nvim_win_set_cursor(0, { 6, 0 })
  local places = {}
  vim.ui.select = function(items, opts, on_choice)
    local first = items[1]
    if first and (first[2] or first.action or first).title then -- the code action menu
      for i, it in ipairs(items) do
        local a = it[2] or it.action or it
        if a.title:find("^Go to evidence") then return on_choice(it, i) end
      end
      return on_choice(nil)
    end
    for _, it in ipairs(items) do places[#places + 1] = opts.format_item(it) end
    on_choice(items[2], 2) -- the place list
  end
  vim.lsp.buf.code_action()
  local went = vim.wait(WAIT, function() return #places > 0 and vim.api.nvim_win_get_cursor(0)[1] == 12 end, 20)
  vim.ui.select = orig_select
  check("code-action.evidence", went and #places == 2 and places[1]:find("kargs.h:11", 1, true) and places[2]:find("kargs.h:12", 1, true)
    and vim.api.nvim_get_current_line():find("offsetof", 1, true) ~= nil,
    "places " .. table.concat(places, " | ") .. " / line " .. vim.api.nvim_get_current_line())

  -- 6. edits: two lines inserted above move B8 down; bounding the call clears it
  vim.cmd("buffer " .. g)
  vim.api.nvim_buf_set_lines(g, 0, 0, false, { "# gather kernel", "# (edited in the test)" })
  local followed = vim.wait(WAIT, function() local d = find(g, "B8"); return d and d.lnum == 6 end, 20)
  check("edit.follows", followed, "after inserting 2 lines: " .. describe(g))
  local l = vim.api.nvim_buf_get_lines(g, 6, 7, false)[1]
  vim.api.nvim_buf_set_lines(g, 6, 7, false, { (l:gsub("create_buffer_resource%(src%)", "create_buffer_resource(src, max_size=False)")) })
  local cleared = vim.wait(WAIT, function() return find(g, "B8") == nil end, 20)
  check("edit.clears", cleared, "after bounding the call: " .. describe(g))
  vim.api.nvim_buf_set_lines(g, 6, 7, false, { l })
  check("edit.returns", vim.wait(WAIT, function() return find(g, "B8") ~= nil end, 20), describe(g))

  -- 7. settings changed live: disabledRules hides D4 (shown in a window: Neovim 0.11+ re-pulls
  -- the diagnostics of visible buffers when the server asks)
  vim.cmd("buffer " .. s)
  rl.set_settings({ severity = { D11 = "error" }, debounceMs = 50, rulesPath = "docs/review-rules.md", disabledRules = { "D4" } })
  check("settings.disabled-rules", vim.wait(WAIT, function() return find(s, "D4") == nil end, 20), describe(s))
  rl.set_settings({ severity = { D11 = "error" }, debounceMs = 50, rulesPath = "docs/review-rules.md" })
  check("settings.restored", vim.wait(WAIT, function() return find(s, "D4") ~= nil end, 20), describe(s))

  -- 8. :ReviewRescan, :ReviewDerived and :ReviewLog (the user commands themselves)
  local before = #notes
  vim.cmd("ReviewRescan")
  vim.wait(WAIT, function() return #notes > before end, 20)
  check("rescan", notes[#notes] and notes[#notes]:find("rescanned: 3 changed files, %d+ findings") ~= nil, tostring(notes[#notes]))
  local win = vim.api.nvim_get_current_win()
  vim.cmd("ReviewDerived")
  local shown = vim.wait(WAIT, function() return vim.api.nvim_buf_get_name(0):find("derived%-rules") ~= nil end, 20)
  local derived = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
  check("derived", shown and derived:find("[flydsl-kernel", 1, true) ~= nil and derived:find("B8", 1, true) ~= nil, derived)
  if vim.api.nvim_get_current_win() ~= win then vim.cmd("close") end
  -- :ReviewChecklist: every derived family (those :ReviewDerived listed) with its lines and
  -- rules as boxes, in a Markdown scratch buffer
  local fams = {}
  for f in derived:gmatch("%[([%w-]+)%s*%]") do fams[#fams + 1] = f end
  vim.cmd("buffer " .. g)
  vim.cmd("ReviewChecklist")
  local opened_cl = vim.wait(WAIT, function() return vim.api.nvim_buf_get_name(0):find("review://checklist", 1, true) ~= nil end, 20)
  local cl = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
  local missing = {}
  for _, f in ipairs(fams) do
    if not cl:find("\n## " .. f .. "\n", 1, true) then missing[#missing + 1] = f end
  end
  check("checklist.opens", opened_cl and vim.bo.filetype == "markdown" and vim.bo.buftype == "nofile", vim.api.nvim_buf_get_name(0))
  check("checklist.every-family", #fams >= 4 and #missing == 0, "families " .. table.concat(fams, ",") .. "; missing " .. table.concat(missing, ","))
  check("checklist.lines-and-boxes", cl:find("Triggered at aiter/ops/flydsl/kernels/gather.py:1", 1, true) ~= nil
    and cl:find("- [ ] **B8 — FlyDSL buffer or descriptor bound not tied to the tensor's real extent (repository copy)**", 1, true) ~= nil, cl:sub(1, 600))
  vim.cmd("close")
  vim.cmd("ReviewLog")
  local log = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
  check("server-log", log:find("work tree " .. vim.loop.fs_realpath(FIX), 1, true) ~= nil, log:sub(1, 300))
  vim.cmd("close")

  -- 9. :checkhealth review_lsp
  vim.cmd("buffer " .. g)
  vim.cmd("silent checkhealth review_lsp")
  local health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
  check("checkhealth.binary", health:find("binary: " .. BIN, 1, true) and health:find("review%-lsp %d") ~= nil, health)
  check("checkhealth.repository", health:find("repository: " .. FIX, 1, true) ~= nil, health)
  check("checkhealth.base", health:find("base: main (merge base", 1, true) ~= nil, health)
  check("checkhealth.rules", health:find("rules file: " .. FIX .. "/docs/review-rules.md", 1, true) ~= nil, health)
  check("checkhealth.no-errors", health:find("ERROR") == nil, health)
  vim.cmd("tabclose")

  -- 10. a file outside any git repository gets no client
  if NONGIT then
    vim.cmd("edit " .. vim.fn.fnameescape(NONGIT))
    local b = vim.api.nvim_get_current_buf()
    vim.wait(300, function() return false end, 50)
    check("outside-git", rl.client(b) == nil or not rl.client(b).attached_buffers[b], "a client attached to " .. NONGIT)
  end
end

local ok, e = pcall(run)
if not ok then fail("script", e) end
-- stop the servers before leaving
local get = vim.lsp.get_clients or vim.lsp.get_active_clients
for _, c in ipairs(get()) do if vim.fn.has("nvim-0.11") == 1 then c:stop() else c.stop() end end
vim.wait(3000, function() return #get() == 0 end, 50)
say("DONE")
vim.cmd("qa!")
