-- review_lsp: the Neovim plugin for review-lsp. `require("review_lsp").setup({...})` starts the
-- server for Python, C/C++, CUDA/HIP, CSV, YAML and JSON buffers inside a git repository (one
-- client per repository), passes the `review` settings, maps `K` (hover) and `gra` (code
-- action) in the buffers it serves unless those keys are mapped already, adds :ReviewRule [ID],
-- :ReviewChecklist, :ReviewEvidence, :ReviewRescan, :ReviewDerived and :ReviewLog, shows the
-- review checklist and a line's evidence (tables, diffs; what the hover's "Show evidence" link
-- opens in VS Code) in scratch buffers, and opens rule/evidence locations on the client side when the server could
-- not (Neovim without window/showDocument, e.g. Debian's 0.7). Works on Neovim 0.7
-- (vim.lsp.start_client + buf_attach_client), 0.8-0.10 (vim.lsp.start) and 0.11+
-- (vim.lsp.config + vim.lsp.enable).
local M = {}

M.name = "review_lsp"

local defaults = {
  -- The server command; `server_path` is a shorthand for cmd = { server_path }.
  cmd = nil,
  server_path = nil,
  -- Filetypes to attach to, and file extensions attached to whatever their filetype.
  filetypes = { "python", "c", "cpp", "cuda", "hip", "csv", "yaml", "json" },
  extensions = { "py", "c", "cc", "cpp", "cxx", "h", "hh", "hpp", "hxx", "cu", "cuh", "hip",
                 "csv", "yaml", "yml", "json" },
  -- Server settings, sent as initializationOptions, in workspace/didChangeConfiguration and as
  -- the answer to workspace/configuration (section "review"): base, title, rulesPath,
  -- severity, disabledRules, derivedHints, debounceMs, maxFileBytes, logLevel.
  settings = {},
  -- Called as on_attach(client, bufnr) after the server attaches to a buffer (before the
  -- default keymaps below, so a key it maps is left alone).
  on_attach = nil,
  -- Buffer-local keymaps set where the server attaches, each only when that key has no mapping
  -- yet (yours, global or buffer-local, win): { hover = "K", code_action = "gra" }. false: none.
  keymaps = { hover = "K", code_action = "gra" },
  -- Use vim.lsp.config/vim.lsp.enable on Neovim 0.11+ (false: the same path as 0.8-0.10).
  use_lsp_config = true,
}

M.config = vim.deepcopy(defaults)
M.log = {} -- the server's window/logMessage lines, newest last (bounded)
M.info = {} -- facts the server logged: rules file, work tree, version
local LOG_MAX = 2000
local uv = vim.loop or vim.uv

-- Client methods: `client:request(...)` from 0.11 on, `client.request(...)` before.
local colon = vim.fn.has("nvim-0.11") == 1
local function c_request(c, ...)
  if colon then return c:request(...) end
  return c.request(...)
end
local function c_notify(c, ...)
  if colon then return c:notify(...) end
  return c.notify(...)
end

local function notify(msg, level)
  vim.notify("review-lsp: " .. msg, level or vim.log.levels.INFO)
end

-- The server command as a list.
function M.cmd()
  local c = M.config
  if c.cmd then
    return type(c.cmd) == "table" and c.cmd or { c.cmd }
  end
  return { c.server_path or "review-lsp" }
end

-- The git work tree holding path (a directory or file), or nil.
function M.git_root(path)
  if not path or path == "" then
    return nil
  end
  local dir = path
  local st = uv.fs_stat(dir)
  if not st or st.type ~= "directory" then
    dir = vim.fn.fnamemodify(dir, ":p:h")
  end
  while dir and dir ~= "" do
    if uv.fs_stat(dir .. "/.git") then
      return dir
    end
    local parent = vim.fn.fnamemodify(dir, ":h")
    if parent == dir then
      break
    end
    dir = parent
  end
  return nil
end

-- The server's settings with their defaults: every key is sent, so removing one from the
-- user's table puts the default back (the server keeps a value when its key is absent).
M.setting_defaults = {
  base = "", title = "", rulesPath = "", severity = {}, disabledRules = {},
  derivedHints = "file", debounceMs = 150, maxFileBytes = 2097152, logLevel = "info",
}

-- Settings as a JSON-ready table: empty tables become an object (severity) or null (a list).
local function review_settings()
  local s = vim.tbl_extend("force", vim.deepcopy(M.setting_defaults), vim.deepcopy(M.config.settings or {}))
  if type(s.severity) ~= "table" or next(s.severity) == nil then
    s.severity = vim.empty_dict()
  end
  if type(s.disabledRules) ~= "table" or next(s.disabledRules) == nil then
    s.disabledRules = vim.NIL
  end
  return s
end

local function eligible(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= "" then
    return false
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == "" or name:match("^%a+://") then
    return false
  end
  local ft = vim.bo[bufnr].filetype
  for _, f in ipairs(M.config.filetypes) do
    if f == ft then
      return true
    end
  end
  local ext = name:match("%.([%w]+)$")
  for _, e in ipairs(M.config.extensions) do
    if ext == e then
      return true
    end
  end
  return false
end

-- Open a file at a 0-based LSP range (or a 1-based line) in the current window.
local function open_location(uri, range, line1)
  local path = vim.uri_to_fname(uri)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local line = line1 or (range and range.start and range.start.line + 1) or 1
  local col = (range and range.start and range.start.character) or 0
  local last = vim.api.nvim_buf_line_count(0)
  pcall(vim.api.nvim_win_set_cursor, 0, { math.min(line, last), col })
  vim.cmd("normal! zz")
end
M.open_location = open_location

-- Client-side handling of the result of review.openRule / review.openLocation: the server
-- returns the location and whether it already asked the client to show it.
local function show_result(result)
  if type(result) ~= "table" or not result.uri then
    return
  end
  if result.shown == true then
    return
  end
  open_location(result.uri, result.range, result.line)
end

local function on_log_message(err, result, ctx, config)
  if type(result) == "table" and result.message then
    local kinds = { "ERROR", "WARNING", "INFO", "LOG" }
    table.insert(M.log, string.format("[%s] %s", kinds[result.type] or "?", result.message))
    if #M.log > LOG_MAX then
      table.remove(M.log, 1)
    end
    local ver, tree, rules = result.message:match("^review%-lsp (%S+): work tree (.-), rules (.-), positions in")
    if ver then
      M.info.version, M.info.work_tree, M.info.rules = ver, tree, rules
    end
  end
  return vim.lsp.handlers["window/logMessage"](err, result, ctx, config)
end

-- Run a server command on the review client of a buffer; cb(err, result).
function M.execute(command, arguments, cb, bufnr)
  local client = M.client(bufnr)
  if not client then
    notify("no review-lsp client for this buffer (not a file inside a git repository?)", vim.log.levels.WARN)
    return false
  end
  c_request(client, "workspace/executeCommand", { command = command, arguments = arguments },
    function(err, result)
      if err then
        notify(command .. ": " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      end
      if cb then
        cb(err, result)
      end
    end, bufnr or vim.api.nvim_get_current_buf())
  return true
end

-- Open one of several evidence locations: a choice when there are more than one.
local function pick_location(result)
  local locs = type(result) == "table" and result.locations
  if type(locs) ~= "table" or #locs < 2 then
    return show_result(result)
  end
  vim.ui.select(locs, {
    prompt = "Evidence",
    format_item = function(l)
      local line = l.range and l.range.start and l.range.start.line + 1 or 1
      return string.format("%s:%d — %s", vim.fn.fnamemodify(vim.uri_to_fname(l.uri), ":~:."), line, l.message or "")
    end,
  }, function(l)
    if l then open_location(l.uri, l.range) end
  end)
end

-- Commands the server's code actions carry, run here so their locations open client-side.
local client_commands = {
  ["review.openRule"] = function(command, ctx)
    M.execute(command.command, command.arguments, function(err, result)
      if not err then show_result(result) end
    end, ctx and ctx.bufnr)
  end,
  ["review.openLocation"] = function(command, ctx)
    local arg = command.arguments and command.arguments[1]
    if type(arg) == "table" and type(arg.locations) == "table" and #arg.locations > 1 then
      return pick_location(arg) -- the server would show only the first
    end
    M.execute(command.command, command.arguments, function(err, result)
      if not err then show_result(result) end
    end, ctx and ctx.bufnr)
  end,
  ["review.showChecklist"] = function(command, ctx)
    M.show_checklist(nil, ctx and ctx.bufnr, command.arguments)
  end,
  ["review.showEvidence"] = function(command, ctx)
    M.show_evidence(nil, ctx and ctx.bufnr, command.arguments)
  end,
}

-- A relative rulesPath means relative to the repository; the server reads initializationOptions
-- before it knows the workspace (it would resolve against its working directory), so make it
-- absolute here.
local function before_init(params, config)
  local review = params.initializationOptions and params.initializationOptions.review
  local root = config.root_dir
  if type(review) == "table" and type(review.rulesPath) == "string" and review.rulesPath ~= ""
      and review.rulesPath:sub(1, 1) ~= "/" and root then
    review.rulesPath = root .. "/" .. review.rulesPath
  end
end

local function base_config(root)
  return {
    name = M.name,
    cmd = M.cmd(),
    cmd_cwd = root,
    before_init = before_init,
    root_dir = root,
    -- (the folder's name is its path, as Neovim names them: 0.10 reuses a client by it)
    workspace_folders = root and { { uri = vim.uri_from_fname(root), name = root } } or nil,
    init_options = { review = review_settings() },
    settings = { review = review_settings() },
    handlers = { ["window/logMessage"] = on_log_message },
    -- Neovim 0.12 answers workspace/diagnostic/refresh with a workspace pull alone when the
    -- server offers one, and keeps the document pulls of open buffers over its reports: open
    -- buffers would stay stale after a settings or git change. Offered document pulls only,
    -- it re-pulls those buffers (and pushes cover the rest).
    on_init = function(client)
      local dp = client.server_capabilities and client.server_capabilities.diagnosticProvider
      if type(dp) == "table" then
        dp.workspaceDiagnostics = false
      end
    end,
    commands = client_commands,
    on_attach = function(client, bufnr)
      if M.config.on_attach then
        M.config.on_attach(client, bufnr)
      end
      M.default_keymaps(bufnr)
    end,
  }
end

-- True when lhs has a normal-mode mapping in bufnr (buffer-local or global).
local function mapped(lhs, bufnr)
  local found = false
  vim.api.nvim_buf_call(bufnr, function()
    found = vim.fn.maparg(lhs, "n") ~= ""
  end)
  return found
end

-- Map K (hover) and gra (code action) in a buffer the server serves, where not mapped yet.
function M.default_keymaps(bufnr)
  local km = M.config.keymaps
  if not km or not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  local function set(lhs, fn, desc)
    if lhs and lhs ~= "" and not mapped(lhs, bufnr) then
      vim.keymap.set("n", lhs, fn, { buffer = bufnr, silent = true, desc = desc })
    end
  end
  set(km.hover, function() vim.lsp.buf.hover() end, "review-lsp: hover (the rule of the findings here)")
  set(km.code_action, function() vim.lsp.buf.code_action() end, "review-lsp: code actions (open rule, evidence, ignore)")
end

-- The review client serving bufnr (or the only one running), or nil.
function M.client(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local fallback
  for _, c in ipairs(get()) do
    if c.name == M.name then
      if c.attached_buffers and c.attached_buffers[bufnr] then
        return c
      end
      fallback = fallback or c
    end
  end
  if fallback then
    local root = M.git_root(vim.api.nvim_buf_get_name(bufnr)) or M.git_root(vim.fn.getcwd())
    for _, c in ipairs(get()) do
      if c.name == M.name and (root == nil or c.config.root_dir == root) then
        return c
      end
    end
  end
  return fallback
end

local clients_by_root = {} -- Neovim 0.7: root -> client id

-- Attach the server to a buffer when it is eligible (idempotent).
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not eligible(bufnr) then
    return nil
  end
  local root = M.git_root(vim.api.nvim_buf_get_name(bufnr))
  if not root then
    return nil
  end
  if vim.fn.executable(M.cmd()[1]) ~= 1 then
    if not M._warned_missing then
      M._warned_missing = true
      notify(M.cmd()[1] .. " is not executable: build it with `make` and put it on PATH, or set server_path",
        vim.log.levels.WARN)
    end
    return nil
  end
  if vim.lsp.start then
    return vim.lsp.start(base_config(root), {
      bufnr = bufnr,
      -- one client per repository
      reuse_client = function(client, config)
        return client.name == config.name and client.config.root_dir == config.root_dir
      end,
    })
  end
  local id = clients_by_root[root]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(base_config(root))
    clients_by_root[root] = id
  end
  if id and not vim.lsp.buf_is_attached(bufnr, id) then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

-- Replace the settings and tell every running review client (live update).
function M.set_settings(settings)
  M.config.settings = settings or {}
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  for _, c in ipairs(get()) do
    if c.name == M.name then
      c.config.settings = { review = review_settings() }
      c_notify(c, "workspace/didChangeConfiguration", { settings = c.config.settings })
    end
  end
end

-- The rules of the rules file the server uses ({id, title, line, uri}, from review.listRules),
-- cached per client; cb(rules) when given, else a synchronous request (for completion).
local rules_cache = {}
function M.rules(cb, bufnr)
  local client = M.client(bufnr)
  if not client then
    if cb then cb({}) end
    return {}
  end
  if rules_cache[client.id] then
    if cb then cb(rules_cache[client.id]) end
    return rules_cache[client.id]
  end
  local uri = vim.uri_from_bufnr(bufnr or vim.api.nvim_get_current_buf())
  local params = { command = "review.listRules", arguments = { { uri = uri } } }
  if cb then
    c_request(client, "workspace/executeCommand", params, function(err, result)
      if not err and type(result) == "table" then rules_cache[client.id] = result end
      cb(rules_cache[client.id] or {})
    end, bufnr or vim.api.nvim_get_current_buf())
    return nil
  end
  local res
  if colon then
    res = client:request_sync("workspace/executeCommand", params, 2000)
  else
    res = client.request_sync("workspace/executeCommand", params, 2000)
  end
  if res and not res.err and type(res.result) == "table" then
    rules_cache[client.id] = res.result
  end
  return rules_cache[client.id] or {}
end

-- The rules file the server uses, when it said so (review.listRules, its log, or a link).
function M.rules_file()
  local cached = rules_cache[(M.client() or {}).id or -1]
  if cached and cached[1] and cached[1].uri then
    return vim.uri_to_fname(cached[1].uri)
  end
  if M.info.rules and M.info.rules:sub(1, 1) == "/" then
    return M.info.rules
  end
  for _, d in ipairs(vim.diagnostic.get(nil)) do
    local href = d.user_data and d.user_data.lsp and d.user_data.lsp.codeDescription
      and d.user_data.lsp.codeDescription.href
    if href and href:match("^file:") then
      return vim.uri_to_fname((href:gsub("#.*$", "")))
    end
  end
  return nil
end

local function complete_rules(arglead)
  local out = {}
  for _, r in ipairs(M.rules()) do
    if r.id:upper():sub(1, #arglead) == arglead:upper() then
      table.insert(out, r.id)
    end
  end
  return out
end

-- :ReviewRule ID (the rules file of the current buffer's repository)
function M.open_rule(id, cb)
  local arg = { rule = id, file = vim.uri_from_bufnr(vim.api.nvim_get_current_buf()) }
  return M.execute("review.openRule", { arg }, function(err, result)
    if not err then show_result(result) end
    if cb then cb(err, result) end
  end)
end

-- :ReviewRule without an argument: pick from every rule of the rules file in use.
function M.pick_rule()
  M.rules(function(rules)
    if #rules == 0 then
      notify("no rules: is a review-lsp client attached to this buffer?", vim.log.levels.WARN)
      return
    end
    vim.ui.select(rules, {
      prompt = "Review rule",
      format_item = function(r) return r.id .. " — " .. r.title end,
    }, function(r)
      if r then M.open_rule(r.id) end
    end)
  end)
end

-- :ReviewRescan
function M.rescan(cb)
  return M.execute("review.rescan", {}, function(err, result)
    if not err and type(result) == "table" then
      notify(string.format("rescanned: %s changed files, %s findings", tostring(result.files), tostring(result.findings)))
    end
    if cb then cb(err, result) end
  end)
end

local function scratch(name, text, opts)
  opts = opts or {}
  local old = vim.fn.bufnr(name)
  if old ~= -1 then
    pcall(vim.api.nvim_buf_delete, old, { force = true })
  end
  vim.cmd("new")
  local b = vim.api.nvim_get_current_buf()
  vim.bo[b].buftype = "nofile"
  vim.bo[b].bufhidden = "wipe"
  vim.bo[b].swapfile = false
  pcall(vim.api.nvim_buf_set_name, b, name)
  vim.api.nvim_buf_set_lines(b, 0, -1, false, vim.split(text, "\n", { plain = true }))
  if opts.filetype then
    vim.bo[b].filetype = opts.filetype
  end
  vim.bo[b].modifiable = opts.modifiable == true
  return b
end

-- :ReviewChecklist — the review checklist of the current buffer's repository (every derived
-- rule with its text and the lines that triggered it, as Markdown with [ ] boxes) in a scratch
-- buffer you can tick in (it is not saved anywhere).
function M.show_checklist(cb, bufnr, arguments)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local args = arguments or { { uri = vim.uri_from_bufnr(bufnr) } }
  return M.execute("review.showChecklist", args, function(err, result)
    if not err and type(result) == "table" and type(result.markdown) == "string" then
      scratch("review://checklist", result.markdown, { filetype = "markdown", modifiable = true })
    end
    if cb then cb(err, result) end
  end, bufnr)
end

-- :ReviewEvidence — every exhibit of the findings on the cursor's line (a struct's layout table,
-- a deleted guard's diff, ...) in full, as Markdown in a scratch buffer.
function M.show_evidence(cb, bufnr, arguments)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local args = arguments
  if not args then
    local line = vim.api.nvim_win_get_cursor(0)[1] - 1
    args = { { uri = vim.uri_from_bufnr(bufnr), line = line } }
  end
  return M.execute("review.showEvidence", args, function(err, result)
    if not err and type(result) == "table" and type(result.markdown) == "string" then
      scratch("review://evidence", result.markdown, { filetype = "markdown" })
    end
    if cb then cb(err, result) end
  end, bufnr)
end

-- :ReviewDerived
function M.show_derived(cb)
  return M.execute("review.showDerivedRules", {}, function(err, result)
    if not err and type(result) == "string" then
      scratch("review://derived-rules", result)
    end
    if cb then cb(err, result) end
  end)
end

-- :ReviewLog
function M.show_log()
  return scratch("review://server-log", table.concat(M.log, "\n"))
end

local function define_commands()
  vim.api.nvim_create_user_command("ReviewRule", function(a)
    if a.args ~= "" then return M.open_rule(a.args) end
    M.pick_rule()
  end, { nargs = "?", complete = complete_rules, desc = "Open a review rule in the rules file" })
  vim.api.nvim_create_user_command("ReviewChecklist", function() M.show_checklist() end,
    { nargs = 0, desc = "Show the review checklist of the change (every derived rule, with its lines)" })
  vim.api.nvim_create_user_command("ReviewEvidence", function() M.show_evidence() end,
    { nargs = 0, desc = "Show the evidence of the findings on the cursor's line, in full" })
  vim.api.nvim_create_user_command("ReviewRescan", function() M.rescan() end,
    { nargs = 0, desc = "Review the change again" })
  vim.api.nvim_create_user_command("ReviewDerived", function() M.show_derived() end,
    { nargs = 0, desc = "Show the rule families the change derives" })
  vim.api.nvim_create_user_command("ReviewLog", function() M.show_log() end,
    { nargs = 0, desc = "Show the review-lsp server log" })
end

-- Neovim 0.11+: declare the config and enable it; Neovim attaches by filetype and git root.
local function setup_lsp_config()
  local cfg = base_config(nil)
  cfg.root_dir = function(bufnr, on_dir)
    if eligible(bufnr) then
      local root = M.git_root(vim.api.nvim_buf_get_name(bufnr))
      if root then
        on_dir(root)
      end
    end
  end
  cfg.workspace_folders = nil
  cfg.filetypes = M.config.filetypes
  vim.lsp.config(M.name, cfg)
  vim.lsp.enable(M.name)
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  if opts and opts.settings then
    M.config.settings = vim.deepcopy(opts.settings) -- lists replace, not merge
  end
  define_commands()
  local group = vim.api.nvim_create_augroup("review_lsp", { clear = true })
  if vim.filetype and vim.filetype.add then
    vim.filetype.add({ extension = { hip = "hip" } })
  end
  local use_config = M.config.use_lsp_config and vim.lsp.config ~= nil and vim.lsp.enable ~= nil
  if use_config then
    setup_lsp_config()
  else
    vim.api.nvim_create_autocmd({ "FileType", "BufReadPost", "BufNewFile" }, {
      group = group,
      callback = function(ev) M.attach(ev.buf) end,
    })
    -- Buffers already open when setup() runs.
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) then
        M.attach(b)
      end
    end
  end
end

return M
