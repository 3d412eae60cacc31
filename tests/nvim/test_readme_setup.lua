-- The README's Neovim set-up, as written (run by tests/suites/nvim.sh after
-- `make install PREFIX=$HOME/.local` into a scratch HOME, with ~/.local/bin on PATH), in one of
-- its two forms (SNIPPET):
--   init  the init.lua lines, run as they are (every Neovim release);
--   lazy  the lazy.nvim plugin spec (Neovim 0.10+). lazy.nvim itself is not available here
--         (it is neither an npm nor a Debian package), so this does with the spec what
--         lazy.nvim documents for a local plugin it loads at start-up: `dir` (with ~ expanded)
--         goes on the runtimepath; `opts` (a table, or a function returning one) is passed to
--         `config` when that is a function (config(plugin, opts)), and otherwise, when opts or
--         config = true is given, to require(main).setup(opts).
-- Then it opens a changed file of the fixture and checks that the plugin attached with no
-- other configuration, that `K` shows the rule and `gra` offers the finding's actions. Prints
-- "PASS nvim.vX.Y-SNIPPET.NAME" lines and "DONE". Environment: README, FIXTURE, SNIPPET.
local README = assert(os.getenv("README"), "README unset")
local FIX = assert(os.getenv("FIXTURE"), "FIXTURE unset")
local SNIPPET = os.getenv("SNIPPET") or "lazy"
local WAIT = tonumber(os.getenv("NVIM_TEST_WAIT_MS") or "15000")
local V = vim.version()
local TAG = string.format("v%d.%d-%s", V.major, V.minor, SNIPPET)
local function say(s) io.stdout:write(s .. "\n"); io.stdout:flush() end
local function pass(name) say("PASS nvim." .. TAG .. "." .. name) end
local function fail(name, why) say("FAIL nvim." .. TAG .. "." .. name); io.stderr:write("  " .. name .. ": " .. tostring(why) .. "\n") end
local function check(name, cond, why) if cond then pass(name) else fail(name, why) end return cond end
vim.notify = function(msg) io.stderr:write("notify: " .. tostring(msg) .. "\n") end
vim.cmd("filetype on") -- as in any real configuration (Neovim 0.11+ attaches by filetype)

-- The ```lua block of the README's Neovim section that is the lazy.nvim spec (it names `dir`)
-- or the init.lua lines (they prepend to the runtime path).
local function readme_block()
  local text = table.concat(vim.fn.readfile(README), "\n")
  local section = text:match("\n## Neovim\n(.-)\n## ") or ""
  for block in section:gmatch("```lua\n(.-)```") do
    if SNIPPET == "lazy" and block:find("lazy", 1, true) and block:find("dir = ", 1, true) then
      return block
    elseif SNIPPET == "init" and block:find("runtimepath:prepend", 1, true) then
      return block
    end
  end
  return nil
end

-- What lazy.nvim does with a spec of a local plugin loaded at start-up.
local function load_like_lazy(spec)
  check("spec-is-a-plugin-spec", type(spec) == "table" and type(spec.dir) == "string", vim.inspect(spec))
  local dir = vim.fn.expand(spec.dir)
  check("spec-dir-installed", vim.fn.isdirectory(dir .. "/lua/review_lsp") == 1, dir)
  vim.opt.runtimepath:prepend(dir)
  local plugin = { name = spec.name or vim.fn.fnamemodify(dir, ":t"), dir = dir, main = spec.main }
  local opts = spec.opts
  if type(opts) == "function" then opts = opts(plugin, {}) end
  if type(spec.config) == "function" then
    spec.config(plugin, opts or {})
  elseif opts ~= nil or spec.config == true then
    local main = spec.main or "review_lsp"
    require(main).setup(opts or {})
  end
end

local function run()
  local src = readme_block()
  if not check("readme-has-snippet", src ~= nil, "no " .. SNIPPET .. " block in README's Neovim section") then return end
  local chunk, err = (loadstring or load)(src, "README " .. SNIPPET .. " snippet")
  if not check("snippet-parses", chunk ~= nil, err) then return end
  if SNIPPET == "lazy" then
    load_like_lazy(chunk())
  else
    chunk()
  end
  local rl = require("review_lsp")
  check("setup-ran", vim.fn.exists(":ReviewChecklist") == 2, "no :ReviewChecklist command: setup() was never called")

  vim.cmd("edit " .. vim.fn.fnameescape(FIX .. "/csrc/include/kargs.h"))
  local k = vim.api.nvim_get_current_buf()
  check("attached", vim.wait(WAIT, function() return rl.client(k) ~= nil end, 20), "no review_lsp client: " .. vim.inspect(rl.cmd()))
  local function d11()
    for _, d in ipairs(vim.diagnostic.get(k)) do
      if (d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)) == "D11" then return d end
    end
  end
  check("finding", vim.wait(WAIT, function() return d11() ~= nil end, 20), vim.inspect(vim.diagnostic.get(k)))

  vim.api.nvim_win_set_cursor(0, { 6, 4 })
  vim.cmd("normal K")
  local text = ""
  local shown = vim.wait(WAIT, function()
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(w).relative ~= "" then
        text = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false), "\n")
        if text:find("D11", 1, true) then return true end
      end
    end
    return false
  end, 20)
  check("K-shows-rule", shown and text:find("Struct field added or removed with a pinned ABI", 1, true) ~= nil, text:sub(1, 300))
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= "" then pcall(vim.api.nvim_win_close, w, true) end
  end

  local titles = {}
  local sel = vim.ui.select
  vim.ui.select = function(items, _, on_choice)
    for _, it in ipairs(items) do
      local a = it[2] or it.action or it
      titles[#titles + 1] = a.title
    end
    on_choice(nil)
  end
  vim.cmd("normal gra")
  vim.wait(WAIT, function() return #titles > 0 end, 20)
  vim.ui.select = sel
  check("gra-offers-actions", titles[1] and titles[1]:find("^Open rule D11") ~= nil and #titles <= 4, table.concat(titles, "; "))
end

local ok, e = pcall(run)
if not ok then fail("script", e) end
local get = vim.lsp.get_clients or vim.lsp.get_active_clients
for _, c in ipairs(get()) do if vim.fn.has("nvim-0.11") == 1 then c:stop() else c.stop() end end
vim.wait(3000, function() return #get() == 0 end, 50)
say("DONE")
vim.cmd("qa!")
