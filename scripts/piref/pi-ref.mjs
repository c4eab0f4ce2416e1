// pi-ref: what Pi's own coding agent (the release pinned in package.json beside this file)
// computes for a session file, printed as JSON on standard output. Run it through ../pi-ref,
// which installs that release on first use and sets PI_REF_HOME to the folder it is in.
//
// The caller's file is never changed: where Pi's code would rewrite it (its loader appends a
// newline to an unterminated last line; opening a session may migrate it), a private copy in a
// temporary folder is read instead. `info` therefore reports that copy's path.
// The leaf defaults to the file's last entry, as when Pi opens a session.
import { closeSync, copyFileSync, fstatSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const commands = {
	context: { usage: "FILE [--leaf ID]", about: "buildSessionContext after migration", run: context },
	llm: { usage: "FILE [--leaf ID]", about: "convertToLlm of the context's messages", run: llm },
	provider: { usage: "FILE [--leaf ID]", about: "transformMessages of that, as a same-model provider gets it", run: provider },
	tokens: { usage: "FILE [--leaf ID]", about: "estimateTokens per context message, estimateContextTokens", run: tokens },
	serialize: { usage: "FILE [--leaf ID]", about: "serializeConversation: the summarizer's input text", run: serialize },
	prepare: { usage: "FILE [--leaf ID] [--keep-recent-tokens N] [--reserve-tokens N]", about: "prepareCompaction on the path to the leaf", run: prepare },
	migrate: { usage: "FILE", about: "the entries after migration to v3 (v1 ids are random in Pi)", run: migrate },
	tree: { usage: "FILE", about: "getTree() in display order: id, parentId, type, depth, label, children", run: tree },
	info: { usage: "FILE", about: "the /resume row of the file (its path is a private copy's)", run: info },
	usage: { usage: "FILE", about: "getUsageCostBreakdown: /session's cost and tokens by provider/model", run: usageBreakdown },
	ls: { usage: "DIR", about: "the /resume list of a folder", run: ls },
	clone: { usage: "FILE [--leaf ID]", about: "createBranchedSession: the lines of the new file", run: clone },
	html: { usage: "FILE OUT.html", about: "Pi's own HTML export; prints the written path on stderr", run: html },
};

function usage() {
	const lines = Object.entries(commands).map(([name, c]) => `  pi-ref ${name} ${c.usage}\n      ${c.about}`);
	return `usage:\n${lines.join("\n")}\n`;
}

function fail(message) {
	process.stderr.write(`pi-ref: ${message}\n`);
	process.exit(2);
}

const home = process.env.PI_REF_HOME || fail("PI_REF_HOME is not set: run pi-ref through scripts/pi-ref");
const modules = join(home, "node_modules/@earendil-works");
const piAgent = (rel) => import(pathToFileURL(join(modules, "pi-coding-agent/dist", rel)).href);
const piAI = (rel) => import(pathToFileURL(join(modules, "pi-ai/dist", rel)).href);

const [name, target, ...options] = process.argv.slice(2);
if (name === "--help" || name === "-h") {
	process.stdout.write(usage());
	process.exit(0);
}
const command = commands[name];
if (!command || !target) {
	process.stderr.write(command ? usage() : `pi-ref: unknown command ${name ?? "(none)"}\n${usage()}`);
	process.exit(2);
}

// option returns the value after --name among the options, or fallback.
function option(optionName, fallback) {
	const at = options.indexOf(`--${optionName}`);
	return at >= 0 ? options[at + 1] : fallback;
}

const sessions = await piAgent("core/session-manager.js");

// --- output ---------------------------------------------------------------------------------

// printJSON writes value as JSON.stringify(value) would, followed by a newline ("null" where
// JSON.stringify prints nothing). It walks arrays and objects with a stack of its own rather than
// by recursion, so a value nested a million deep prints (JSON.stringify runs out of stack after a
// few thousand levels, though Pi reads such files), and it writes a megabyte at a time, so an
// answer longer than JavaScript's string limit prints too.
function printJSON(value) {
	const out = new ChunkedWriter();
	const open = []; // the arrays and objects being written, innermost last
	const inside = new Set(); // the same, to refuse a cycle as JSON.stringify does

	// write writes a value that prints: a scalar whole, or the opening of an array or object,
	// whose members the loop below writes.
	const write = (v) => {
		if (!isContainer(v)) return out.put(JSON.stringify(v));
		if (inside.has(v)) throw new TypeError("Converting circular structure to JSON");
		const isArray = Array.isArray(v);
		out.put(isArray ? "[" : "{");
		open.push({ value: v, isArray, keys: isArray ? undefined : Object.keys(v), next: 0, written: 0 });
		inside.add(v);
	};

	const top = toJSONValue(value, "");
	if (prints(top)) write(top);
	else out.put("null");
	while (open.length) {
		const frame = open.at(-1);
		if (frame.next === (frame.isArray ? frame.value.length : frame.keys.length)) {
			out.put(frame.isArray ? "]" : "}");
			inside.delete(frame.value);
			open.pop();
			continue;
		}
		const key = frame.isArray ? String(frame.next) : frame.keys[frame.next];
		frame.next++;
		const member = toJSONValue(frame.value[key], key);
		if (frame.isArray) {
			if (key !== "0") out.put(",");
			if (prints(member)) write(member);
			else out.put("null");
		} else if (prints(member)) {
			out.put(`${frame.written++ ? "," : ""}${JSON.stringify(key)}:`);
			write(member);
		}
	}
	out.put("\n");
	out.flush();
}

// toJSONValue is what JSON.stringify prints for v as the member key: v.toJSON(key) when v has one.
function toJSONValue(v, key) {
	return v !== null && (typeof v === "object" || typeof v === "bigint") && typeof v.toJSON === "function" ? v.toJSON(key) : v;
}

// prints reports whether JSON.stringify prints v at all (it leaves out object members that are
// undefined, functions or symbols, and prints null for them in arrays).
function prints(v) {
	return v !== undefined && typeof v !== "function" && typeof v !== "symbol";
}

// isContainer reports whether v is an array or an object whose members JSON.stringify writes
// (boxed numbers, strings and booleans print as their value).
function isContainer(v) {
	return v !== null && typeof v === "object" && !(v instanceof Number || v instanceof String || v instanceof Boolean || v instanceof BigInt);
}

// ChunkedWriter gathers text and writes it to standard output a megabyte at a time.
class ChunkedWriter {
	text = "";
	put(s) {
		this.text += s;
		if (this.text.length >= 1 << 20) this.flush();
	}
	flush() {
		writeSync(1, this.text);
		this.text = "";
	}
}

// --- loading ----------------------------------------------------------------------------------

// withPrivateFolder runs fn with a new temporary folder and removes it afterwards.
async function withPrivateFolder(fn) {
	const folder = mkdtempSync(join(tmpdir(), "pi-ref-"));
	try {
		return await fn(folder);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

// privateCopy copies file into folder under the name Pi's tools expect and returns the copy.
function privateCopy(file, folder) {
	const copy = join(folder, "session.jsonl");
	copyFileSync(file, copy);
	return copy;
}

function endsWithNewline(file) {
	const fd = openSync(file, "r");
	try {
		const size = fstatSync(fd).size;
		if (size === 0) return true;
		const last = Buffer.alloc(1);
		readSync(fd, last, 0, 1, size - 1);
		return last[0] === 0x0a;
	} finally {
		closeSync(fd);
	}
}

// loadEntries reads file with Pi's own streaming loader (malformed lines skipped, nothing at all
// when the first entry is not a valid header), migrates it, and returns the entries after the
// header. A file with an unterminated last line is read from a private copy, since the loader
// appends the missing newline.
async function loadEntries(file) {
	const entries = endsWithNewline(file)
		? sessions.loadEntriesFromFile(file)
		: await withPrivateFolder((folder) => sessions.loadEntriesFromFile(privateCopy(file, folder)));
	sessions.migrateSessionEntries(entries);
	return entries.filter((entry) => entry.type !== "session");
}

async function contextMessages(file, leaf) {
	return sessions.buildSessionContext(await loadEntries(file), leaf).messages;
}

async function llmMessages(file, leaf) {
	const { convertToLlm } = await piAgent("core/messages.js");
	return convertToLlm(await contextMessages(file, leaf));
}

// branchTo returns the entries from the root to leaf (the last entry when leaf is undefined).
function branchTo(entries, leaf) {
	const byId = new Map(entries.map((entry) => [entry.id, entry]));
	const branch = [];
	for (let at = leaf ? byId.get(leaf) : entries.at(-1); at; at = at.parentId ? byId.get(at.parentId) : undefined) {
		branch.push(at);
	}
	return branch.reverse();
}

// withSessionManager opens a private copy of file with Pi's SessionManager.
function withSessionManager(file, fn) {
	return withPrivateFolder((folder) => fn(sessions.SessionManager.open(privateCopy(file, folder), folder)));
}

// --- commands ---------------------------------------------------------------------------------

async function context(file, leaf) {
	printJSON(sessions.buildSessionContext(await loadEntries(file), leaf));
}

async function llm(file, leaf) {
	printJSON(await llmMessages(file, leaf));
}

async function provider(file, leaf) {
	const { transformMessages } = await piAI("api/transform-messages.js");
	const { convertToLlm } = await piAgent("core/messages.js");
	const messages = await contextMessages(file, leaf);
	const lastAnswer = messages.findLast((m) => m.role === "assistant");
	const model = { provider: lastAnswer?.provider, api: lastAnswer?.api, id: lastAnswer?.model, input: ["text", "image"] };
	const sent = transformMessages(convertToLlm(messages), model);
	// The results Pi makes up for tool calls that never got one carry Date.now(): zero them.
	for (const m of sent) {
		if (m.role === "toolResult" && m.content?.[0]?.text === "No result provided") m.timestamp = 0;
	}
	printJSON(sent);
}

async function tokens(file, leaf) {
	const { estimateTokens, estimateContextTokens } = await piAgent("core/compaction/compaction.js");
	const messages = await contextMessages(file, leaf);
	printJSON({ perMessage: messages.map((m) => estimateTokens(m)), context: estimateContextTokens(messages) });
}

async function serialize(file, leaf) {
	const { serializeConversation } = await piAgent("core/compaction/utils.js");
	process.stdout.write(serializeConversation(await llmMessages(file, leaf)));
}

async function prepare(file, leaf) {
	const { DEFAULT_COMPACTION_SETTINGS: defaults, prepareCompaction } = await piAgent("core/compaction/compaction.js");
	const { computeFileLists, serializeConversation } = await piAgent("core/compaction/utils.js");
	const { convertToLlm } = await piAgent("core/messages.js");
	const settings = {
		...defaults,
		keepRecentTokens: Number(option("keep-recent-tokens", defaults.keepRecentTokens)),
		reserveTokens: Number(option("reserve-tokens", defaults.reserveTokens)),
	};
	const plan = prepareCompaction(branchTo(await loadEntries(file), leaf), settings);
	const text = (messages) => serializeConversation(convertToLlm(messages));
	if (!plan) return printJSON(null);
	printJSON({
		firstKeptEntryId: plan.firstKeptEntryId,
		isSplitTurn: plan.isSplitTurn,
		tokensBefore: plan.tokensBefore,
		previousSummary: plan.previousSummary ?? null,
		messagesToSummarize: plan.messagesToSummarize.length,
		turnPrefixMessages: plan.turnPrefixMessages.length,
		summarizeText: text(plan.messagesToSummarize),
		turnPrefixText: text(plan.turnPrefixMessages),
		files: computeFileLists(plan.fileOps),
	});
}

async function migrate(file) {
	const entries = sessions.parseSessionEntries(readFileSync(file, "utf8"));
	sessions.migrateSessionEntries(entries);
	printJSON(entries);
}

async function tree(file) {
	await withSessionManager(file, (manager) => {
		const rows = [];
		const visit = (node, depth) => {
			const { entry } = node;
			rows.push({ id: entry.id, parentId: entry.parentId, type: entry.type, depth, label: node.label ?? null, children: node.children.map((c) => c.entry.id) });
			return node.children.map((child) => [child, depth + 1]);
		};
		// depth first, children in order, without recursion (trees can be deep)
		const pending = manager.getTree().map((root) => [root, 0]).reverse();
		while (pending.length) pending.push(...visit(...pending.pop()).reverse());
		printJSON({ leafId: manager.getLeafId(), rows });
	});
}

async function info(file) {
	await withPrivateFolder(async (folder) => {
		privateCopy(file, folder);
		const [row] = await sessions.SessionManager.listAll(folder);
		printJSON(row ?? null);
	});
}

async function usageBreakdown(file) {
	const { getUsageCostBreakdown } = await piAgent("core/usage-totals.js");
	await withSessionManager(file, (manager) => printJSON(getUsageCostBreakdown(manager.getEntries())));
}

async function ls(folder) {
	printJSON(await sessions.SessionManager.listAll(folder));
}

async function clone(file, leaf) {
	await withSessionManager(file, (manager) => {
		const written = manager.createBranchedSession(leaf ?? manager.getLeafId());
		const lines = written
			? readFileSync(written, "utf8").trim().split("\n").map((line) => JSON.parse(line))
			: [manager.getHeader(), ...manager.getEntries()];
		printJSON(lines);
	});
}

async function html(file) {
	const out = options[0] ?? fail("html needs an output file: pi-ref html FILE OUT.html");
	const { exportFromFile } = await piAgent("core/export-html/index.js");
	await withPrivateFolder(async (folder) => {
		const written = await exportFromFile(privateCopy(file, folder), out);
		writeSync(2, `${written}\n`);
	});
}

// --- run ------------------------------------------------------------------------------------

await command.run(target, option("leaf"));
