#!/usr/bin/env node
// Protocol transcript runner: plays each tests/protocol/*.t file against the real server over
// pipes and checks every server message, in order, against the transcript's expectations.
// Plain Node (no npm packages). Prints one "PASS protocol.<name>" / "FAIL protocol.<name>" line
// per transcript; details of a failure go to stderr.
//
// Transcript syntax (one directive per line; a JSON body may continue on following lines up to
// a blank line or the next directive; "#" starts a comment line):
//   --> {json}            send a framed client message
//   --> raw "text"        send raw bytes; escapes \r \n \t \" \\ \xNN (any byte)
//   --> framed "HDR" {json}  send HDR (escapes as raw; %LEN% = the body's byte length), then
//                         the JSON body as written (not re-serialised)
//   <-- {pattern}         the next server message (ignored methods skipped) must match
//   <~~ {pattern}         skip server messages until one matches (after disk changes, which the
//                         server's own watcher may report in several steps)
//   %ignore METHOD        skip server messages with this method (window/logMessage by default)
//   %watch METHOD         stop skipping METHOD
//   %quiet MS             no (non-ignored) server message may arrive within MS milliseconds
//   %sh COMMAND           run a shell command in the workspace
//   %sleep MS             wait
//   %close                close the server's stdin
//   %exit CODE            the server must exit with CODE (checked after the transcript)
//   %args A B ...         extra server arguments (before the first message)
//   %env NAME=VALUE       extra server environment (before the first message)
//   %repeat N {json}      send N messages; %i% in the JSON becomes 1..N
//   %expect-repeat N {p}  the next N server messages match p, %i% becoming 1..N
//   %pause / %resume      stop / restart reading the server's stdout (a client that stalls)
//   %log REGEX            the server's --log file matches REGEX (checked when reached)
// Patterns: objects match when every key in the pattern matches (extra keys allowed); arrays
// match element by element with equal length, or, when the first element is "$some", each
// other element must match some element; "*" matches any value; "$absent" requires the key to
// be missing; "re:REGEX" matches strings; "$capture:NAME" matches anything and binds it.
// Substitutions in both directions: ${WS} workspace path, ${WSURI} its file URI, ${CACHE}
// the cache directory; @{NAME} is the JSON of a captured value.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn, execFileSync, execSync } = require('child_process');

const args = process.argv.slice(2);
let bin = null, fixture = null, tmp = null, valgrind = false, suite = 'protocol';
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--bin') bin = args[++i];
  else if (args[i] === '--fixture') fixture = args[++i];
  else if (args[i] === '--tmp') tmp = args[++i];
  else if (args[i] === '--valgrind') valgrind = true;
  else if (args[i] === '--suite') suite = args[++i];
  else files.push(args[i]);
}
if (!bin || !tmp || files.length === 0) {
  console.error('usage: runner.js --bin BIN --tmp DIR [--fixture REPO] [--valgrind] FILE.t...');
  process.exit(2);
}
const TIMEOUT = Number(process.env.PROTOCOL_TIMEOUT_MS || (valgrind ? 60000 : 15000));

function fileUri(p) {
  return 'file://' + p.split('/').map(encodeURIComponent).join('/').replace(/%2F/g, '/');
}

function unescapeRaw(s) {
  const out = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== '\\') { out.push(...Buffer.from(c, 'utf8')); continue; }
    const n = s[++i];
    if (n === 'r') out.push(13);
    else if (n === 'n') out.push(10);
    else if (n === 't') out.push(9);
    else if (n === 'x') { out.push(parseInt(s.substr(i + 1, 2), 16)); i += 2; }
    else out.push(...Buffer.from(n, 'utf8'));
  }
  return Buffer.from(out);
}

function parseTranscript(text) {
  const steps = [];
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const lineNo = i + 1;
    i++;
    if (/^\s*(#.*)?$/.test(line)) continue;
    let m;
    if ((m = /^(-->|<--|<~~)\s*(.*)$/.exec(line))) {
      let body = m[2];
      while (i < lines.length && lines[i].trim() !== '' && !/^(-->|<--|<~~|%|#)/.test(lines[i])) {
        body += '\n' + lines[i];
        i++;
      }
      if (m[1] === '-->' && body.startsWith('framed ')) {
        const fm = /^framed\s+"((?:[^"\\]|\\.)*)"\s*([\s\S]*)$/.exec(body);
        if (!fm) throw new Error(`line ${lineNo}: bad framed directive`);
        steps.push({ kind: 'framed', hdr: fm[1], text: fm[2], lineNo });
      } else if (m[1] === '-->' && body.startsWith('raw ')) {
        const q = body.slice(4).trim();
        steps.push({ kind: 'raw', text: q.slice(1, q.lastIndexOf('"')), lineNo });
      } else {
        steps.push({ kind: m[1] === '-->' ? 'send' : m[1] === '<--' ? 'expect' : 'eventually', text: body, lineNo });
      }
    } else if ((m = /^%([\w-]+)\s*(.*)$/.exec(line))) {
      steps.push({ kind: m[1], arg: m[2], lineNo });
    } else {
      throw new Error(`line ${lineNo}: cannot parse: ${line}`);
    }
  }
  return steps;
}

function describe(v) {
  const s = JSON.stringify(v);
  return s && s.length > 1500 ? s.slice(0, 1500) + '…' : s;
}

function match(pat, act, caps, where) {
  if (pat === '*') return act !== undefined ? null : `${where}: missing`;
  if (pat === '$absent') return act === undefined ? null : `${where}: should be absent, got ${describe(act)}`;
  if (typeof pat === 'string' && pat.startsWith('$capture:')) {
    caps[pat.slice(9)] = act;
    return act !== undefined ? null : `${where}: missing`;
  }
  if (typeof pat === 'string' && pat.startsWith('re:')) {
    if (typeof act !== 'string') return `${where}: want a string matching ${pat}, got ${describe(act)}`;
    return new RegExp(pat.slice(3), 's').test(act) ? null : `${where}: ${describe(act)} does not match ${pat}`;
  }
  if (Array.isArray(pat)) {
    if (!Array.isArray(act)) return `${where}: want an array, got ${describe(act)}`;
    if (pat[0] === '$some') {
      for (let k = 1; k < pat.length; k++) {
        if (!act.some((a) => match(pat[k], a, caps, where) === null))
          return `${where}: no element matches ${describe(pat[k])} in ${describe(act)}`;
      }
      return null;
    }
    if (pat.length !== act.length) return `${where}: want ${pat.length} elements, got ${act.length}: ${describe(act)}`;
    for (let k = 0; k < pat.length; k++) {
      const e = match(pat[k], act[k], caps, `${where}[${k}]`);
      if (e) return e;
    }
    return null;
  }
  if (pat !== null && typeof pat === 'object') {
    if (act === null || typeof act !== 'object' || Array.isArray(act)) return `${where}: want an object, got ${describe(act)}`;
    for (const k of Object.keys(pat)) {
      const e = match(pat[k], act[k], caps, `${where}.${k}`);
      if (e) return e;
    }
    return null;
  }
  return pat === act ? null : `${where}: want ${describe(pat)}, got ${describe(act)}`;
}

async function runOne(file) {
  const name = path.basename(file, '.t');
  const dir = path.join(tmp, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const ws = path.join(dir, 'ws');
  if (fixture) execFileSync('cp', ['-a', fixture, ws]);
  else fs.mkdirSync(ws);
  const cache = path.join(dir, 'cache');
  const vars = { WS: ws, WSURI: fileUri(ws), CACHE: cache };
  const caps = {};
  const subst = (s, json) =>
    s.replace(/\$\{(\w+)\}/g, (_, k) => (k in vars ? vars[k] : _))
      .replace(/@\{(\w+)\}/g, (_, k) => (k in caps ? JSON.stringify(caps[k]) : _));

  const steps = parseTranscript(fs.readFileSync(file, 'utf8'));
  const extra = [];
  const extraEnv = {};
  for (const st of steps) if (st.kind === 'args') extra.push(...subst(st.arg).split(/\s+/).filter(Boolean));
  for (const st of steps) if (st.kind === 'env') { const k = st.arg.indexOf('='); extraEnv[st.arg.slice(0, k)] = subst(st.arg.slice(k + 1)); }
  const logFile = path.join(dir, 'server.log');
  let cmd = bin, cargs = ['--log', logFile, ...extra];
  if (valgrind) {
    cargs = ['--quiet', `--suppressions=${path.join(__dirname, 'valgrind.supp')}`, '--leak-check=full', '--show-leak-kinds=definite,indirect', '--errors-for-leak-kinds=definite,indirect', '--error-exitcode=99', bin, ...cargs];
    cmd = 'valgrind';
  }
  const child = spawn(cmd, cargs, { cwd: ws, env: { ...process.env, XDG_CACHE_HOME: cache, ...extraEnv }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  child.stdin.on('error', () => {});
  child.on('error', (e) => { stderr += 'spawn failed: ' + e.message; });
  const exited = new Promise((resolve) => child.on('exit', (code, sig) => resolve(sig ? 128 : code)));

  // Server output: frames → queue.
  let buf = Buffer.alloc(0);
  const queue = [];
  let waiter = null;
  const all = [];
  child.stdout.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    for (;;) {
      const he = buf.indexOf('\r\n\r\n');
      if (he < 0) break;
      const hdr = buf.slice(0, he).toString();
      const m = /Content-Length: (\d+)/i.exec(hdr);
      if (!m) { queue.push({ bad: 'no Content-Length in ' + hdr }); buf = buf.slice(he + 4); continue; }
      const len = Number(m[1]);
      if (buf.length < he + 4 + len) break;
      const body = buf.slice(he + 4, he + 4 + len).toString('utf8');
      buf = buf.slice(he + 4 + len);
      let msg;
      try { msg = JSON.parse(body); } catch (e) { msg = { bad: 'invalid JSON from server: ' + body }; }
      all.push(msg);
      queue.push(msg);
    }
    if (waiter) { const w = waiter; waiter = null; w(); }
  });
  const ignored = new Set(['window/logMessage']);
  function nextMessage(ms) {
    return new Promise((resolve) => {
      const deadline = Date.now() + ms;
      const tryTake = () => {
        while (queue.length) {
          const m = queue.shift();
          if (m && m.method && ignored.has(m.method)) continue;
          resolve(m);
          return;
        }
        const left = deadline - Date.now();
        if (left <= 0) { resolve(undefined); return; }
        const t = setTimeout(() => { waiter = null; tryTake(); }, left);
        waiter = () => { clearTimeout(t); tryTake(); };
      };
      tryTake();
    });
  }
  const send = (b) => new Promise((resolve) => {
    if (child.stdin.destroyed) return resolve();
    child.stdin.write(b, () => resolve());
  });

  let failure = null, wantExit = null;
  for (const st of steps) {
    const at = `${path.basename(file)}:${st.lineNo}`;
    try {
      if (st.kind === 'send') {
        const body = Buffer.from(JSON.stringify(JSON.parse(subst(st.text))), 'utf8');
        await send(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
      } else if (st.kind === 'framed') {
        const body = Buffer.from(subst(st.text), 'utf8');
        const hdr = unescapeRaw(subst(st.hdr).replace(/%LEN%/g, String(body.length)));
        await send(Buffer.concat([hdr, body]));
      } else if (st.kind === 'raw') {
        await send(unescapeRaw(subst(st.text)));
      } else if (st.kind === 'expect') {
        const pat = JSON.parse(subst(st.text));
        const m = await nextMessage(TIMEOUT);
        if (m === undefined) { failure = `${at}: no server message within ${TIMEOUT} ms; wanted ${describe(pat)}`; break; }
        const e = match(pat, m, caps, 'message');
        if (e) { failure = `${at}: ${e}\n  full message: ${describe(m)}`; break; }
      } else if (st.kind === 'eventually') {
        const pat = JSON.parse(subst(st.text));
        const deadline = Date.now() + TIMEOUT;
        let last = null, ok = false;
        while (!ok && Date.now() < deadline) {
          const m = await nextMessage(deadline - Date.now());
          if (m === undefined) break;
          const probe = {};
          last = match(pat, m, probe, 'message');
          if (last === null) { match(pat, m, caps, 'message'); ok = true; }
        }
        if (!ok) { failure = `${at}: no matching server message within ${TIMEOUT} ms; last mismatch: ${last}`; break; }
      } else if (st.kind === 'ignore') ignored.add(st.arg.trim());
      else if (st.kind === 'watch') ignored.delete(st.arg.trim());
      else if (st.kind === 'quiet') {
        const m = await nextMessage(Number(st.arg));
        if (m !== undefined) { failure = `${at}: unexpected server message ${describe(m)}`; break; }
      } else if (st.kind === 'sh') execSync(subst(st.arg), { cwd: ws, stdio: 'pipe', shell: '/bin/sh' });
      else if (st.kind === 'sleep') await new Promise((r) => setTimeout(r, Number(st.arg)));
      else if (st.kind === 'close') child.stdin.end();
      else if (st.kind === 'exit') wantExit = Number(st.arg);
      else if (st.kind === 'args' || st.kind === 'env') { /* handled before start */ }
      else if (st.kind === 'repeat') {
        const m = /^(\d+)\s+(.*)$/.exec(st.arg);
        const chunks = [];
        for (let k = 1; k <= Number(m[1]); k++) {
          const body = Buffer.from(JSON.stringify(JSON.parse(subst(m[2]).replace(/%i%/g, String(k)))), 'utf8');
          chunks.push(Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body);
        }
        await send(Buffer.concat(chunks));
      } else if (st.kind === 'expect-repeat') {
        const m = /^(\d+)\s+(.*)$/.exec(st.arg);
        for (let k = 1; k <= Number(m[1]) && !failure; k++) {
          const pat = JSON.parse(subst(m[2]).replace(/%i%/g, String(k)));
          const msg = await nextMessage(TIMEOUT);
          if (msg === undefined) failure = `${at}: no server message ${k} of ${m[1]} within ${TIMEOUT} ms`;
          else { const e = match(pat, msg, caps, `message ${k}`); if (e) failure = `${at}: ${e}`; }
        }
        if (failure) break;
      } else if (st.kind === 'pause') child.stdout.pause();
      else if (st.kind === 'resume') child.stdout.resume();
      else if (st.kind === 'log') {
        let text = '';
        try { text = fs.readFileSync(logFile, 'utf8'); } catch (e) { /* none yet */ }
        if (!new RegExp(st.arg.trim()).test(text)) { failure = `${at}: server log does not match ${st.arg}`; break; }
      }
      else { failure = `${at}: unknown directive %${st.kind}`; break; }
    } catch (e) {
      failure = `${at}: ${e.message}`;
      break;
    }
  }
  if (!failure && wantExit === null) {
    // Every transcript ends cleanly unless it says otherwise.
    child.stdin.end();
  }
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), TIMEOUT))]);
  if (code === 'timeout') {
    child.kill('SIGKILL');
    if (!failure) failure = `server did not exit within ${TIMEOUT} ms`;
  } else if (!failure && wantExit !== null && code !== wantExit) {
    failure = `server exited with ${code}, want ${wantExit}`;
  }
  if (!failure && /AddressSanitizer|ThreadSanitizer|LeakSanitizer|runtime error:|==\d+== (Invalid|Conditional|.*definitely lost)/.test(stderr))
    failure = 'sanitizer/valgrind report on stderr';
  if (!failure && code === 99 && valgrind) failure = 'valgrind reported errors';
  if (failure) {
    console.log(`FAIL ${suite}.${name}`);
    console.error(`--- ${name}: ${failure}`);
    if (stderr) console.error(`--- server stderr:\n${stderr.slice(0, 4000)}`);
    try { console.error(`--- server log (tail):\n${fs.readFileSync(logFile, 'utf8').split('\n').slice(-25).join('\n')}`); } catch (e) { /* none */ }
  } else {
    console.log(`PASS ${suite}.${name}`);
  }
  return !failure;
}

(async () => {
  let ok = true;
  for (const f of files) ok = (await runOne(f)) && ok;
  process.exit(ok ? 0 : 1);
})();
