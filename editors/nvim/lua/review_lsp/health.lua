-- :checkhealth review_lsp — reports the review-lsp binary and its version, the git repository
-- of the current buffer (or working directory), the base the review resolves there (asked of
-- the binary's batch face with the same settings) and the rules file in use.
local M = {}

-- vim.health on 0.10+ (start/ok/warn/error/info), report_* on 0.8/0.9, require("health") on 0.7.
local h = vim.health or require("health")
local start = h.start or h.report_start
local ok = h.ok or h.report_ok
local warn = h.warn or h.report_warn
local err = h.error or h.report_error
local info = h.info or h.report_info

local function system(argv, cwd)
  local cmd = {}
  for _, a in ipairs(argv) do
    table.insert(cmd, vim.fn.shellescape(a))
  end
  local line = table.concat(cmd, " ")
  if cwd then
    line = "cd " .. vim.fn.shellescape(cwd) .. " && " .. line
  end
  local out = vim.fn.system(line .. " 2>/dev/null")
  return out, vim.v.shell_error
end

function M.check()
  local rl = require("review_lsp")
  start("review-lsp binary")
  local cmd = rl.cmd()
  local exe = vim.fn.exepath(cmd[1])
  local have_bin = exe ~= ""
  if not have_bin then
    err(cmd[1] .. " not found or not executable",
      { "build it with `make` in the review-lsp checkout and put build/ on PATH",
        "or call require('review_lsp').setup({ server_path = '/path/to/review-lsp' })" })
  else
    local out, rc = system({ exe, "--version" })
    if rc == 0 then
      ok("binary: " .. exe .. " (" .. vim.trim(out) .. ")")
    else
      err("binary: " .. exe .. " does not run (`--version` exit " .. rc .. ")")
    end
  end
  info("Neovim " .. tostring(vim.version().major) .. "." .. tostring(vim.version().minor) .. ": " ..
    ((rl.config.use_lsp_config and vim.lsp.config and vim.lsp.enable) and "vim.lsp.config + vim.lsp.enable"
      or vim.lsp.start and "vim.lsp.start" or "vim.lsp.start_client + buf_attach_client"))

  start("repository")
  -- :checkhealth runs in its own new buffer: the buffer the user came from is the alternate one.
  local from = vim.fn.bufnr("#")
  if from < 1 or vim.bo[from].buftype ~= "" then
    from = vim.api.nvim_get_current_buf()
  end
  local name = vim.api.nvim_buf_get_name(from)
  local client = rl.client(from)
  local root = (name ~= "" and rl.git_root(name)) or (client and client.config.root_dir) or rl.git_root(vim.fn.getcwd())
  if not root then
    warn("the current buffer and working directory are not inside a git repository; review-lsp attaches only inside one")
  else
    ok("repository: " .. root)
  end
  if client then
    ok("server running (client id " .. client.id .. ", root " .. tostring(client.config.root_dir) .. ")")
  else
    info("no review-lsp client is running for this buffer")
  end

  local s = rl.config.settings or {}
  if root and have_bin then
    local argv = { exe, "check", root, "--format", "json" }
    if s.base and s.base ~= "" then vim.list_extend(argv, { "--base", s.base }) end
    if s.title and s.title ~= "" then vim.list_extend(argv, { "--title", s.title }) end
    if s.rulesPath and s.rulesPath ~= "" then vim.list_extend(argv, { "--rules", s.rulesPath }) end
    local out, rc = system(argv, root)
    local okj, j = pcall(vim.json and vim.json.decode or vim.fn.json_decode, out)
    if rc <= 1 and okj and type(j) == "table" then
      ok("base: " .. tostring(j.base))
      info("title: " .. tostring(j.title) .. "; " .. tostring(#(j.files or {})) .. " changed files, " ..
        tostring(#(j.findings or {})) .. " findings")
    else
      warn("could not resolve the base (`review-lsp check` exit " .. rc .. ")")
    end
  end

  start("rules")
  local list = rl.client() and rl.rules() or {}
  local rules = rl.rules_file()
  local why = "reported by the server"
  if not rules and root then
    local own = root .. "/.claude/skills/review-pr/rules.md"
    if vim.fn.filereadable(own) == 1 then -- the server prefers it to every setting
      rules, why = own, "the repository's own rules file"
    elseif s.rulesPath and s.rulesPath ~= "" then
      rules = s.rulesPath:sub(1, 1) == "/" and s.rulesPath or (root .. "/" .. s.rulesPath)
      why = "setting rulesPath"
    end
  end
  if rules then
    local n = #list > 0 and tostring(#list) or "?"
    if vim.fn.filereadable(rules) == 1 then
      ok("rules file: " .. rules .. " (" .. why .. ", " .. n .. " rules)")
    else
      err("rules file: " .. rules .. " (" .. why .. ") is not readable")
    end
  else
    ok("rules file: the catalogue bundled in the binary (written to ~/.cache/review-lsp/<version>/rules.md when opened)")
  end
end

return M
