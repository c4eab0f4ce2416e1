// Preloaded into pi-ref (node --import) when PI_REF_DETERMINISTIC=1. Pi makes random ids (v1
// migration, UUIDv7 session ids), reads the clock for the entries it writes, and pi-ref copies
// files into temporary folders whose names end up in `info`. Here all of them are fixed, so the
// same command on the same file prints the same bytes on every run and from every clone: goldens
// regenerate byte for byte, and two runners can be compared exactly.
import crypto from "node:crypto";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { basename } from "node:path";

// randomUUID counts: 00000001-0000-4000-8000-000000000000, then 00000002-…, so the short ids
// Pi takes from its first 8 characters are 00000001, 00000002, …
let uuids = 0;
crypto.randomUUID = () => `${(++uuids).toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;
globalThis.crypto.getRandomValues = (bytes) => bytes.fill(0);

// The clock stands still at 2026-01-01T00:00:00.000Z; dates made from a value are unchanged.
const now = Date.UTC(2026, 0, 1);
const RealDate = Date;
globalThis.Date = class extends RealDate {
	constructor(...value) {
		super(...(value.length ? value : [now]));
	}
	static now() {
		return now;
	}
};

// mkdtempSync makes PREFIX + 6 hex characters taken from the command and the names (not the
// folders) of its arguments, and a counter, so the name is the same in every clone. Beside the
// folder, FOLDER.pid names the pi-ref that holds it. When another live pi-ref holds that name it
// waits for it, for a minute at most, then takes a random name; a folder whose holder is gone (a
// run that was killed) is taken over at once.
const realMkdtempSync = fs.mkdtempSync;
const command = process.argv.slice(2).map((arg) => basename(arg)).join("\0");
const held = [];
process.on("exit", () => held.forEach((pidFile) => fs.rmSync(pidFile, { force: true })));
let folders = 0;

// holderAlive reports whether the pi-ref named in pidFile still runs. A folder made in the last
// few seconds whose pid file is not written yet counts as held.
function holderAlive(folder, pidFile) {
	let pid;
	try {
		pid = Number(fs.readFileSync(pidFile, "utf8"));
	} catch {
		try {
			return RealDate.now() - fs.statSync(folder).mtimeMs < 5000;
		} catch {
			return false;
		}
	}
	try {
		process.kill(pid, 0);
		return true;
	} catch (err) {
		return err.code === "EPERM";
	}
}

fs.mkdtempSync = (prefix, options) => {
	const suffix = crypto.createHash("sha256").update(`${command}\0${++folders}`).digest("hex").slice(0, 6);
	const folder = `${prefix}${suffix}`;
	const pidFile = `${folder}.pid`;
	const pause = new Int32Array(new SharedArrayBuffer(4));
	for (let waited = 0; waited < 60000; waited += 50) {
		try {
			fs.mkdirSync(folder, { mode: 0o700 });
			fs.writeFileSync(pidFile, String(process.pid));
			held.push(pidFile);
			return folder;
		} catch (err) {
			if (err.code !== "EEXIST") throw err;
			if (!holderAlive(folder, pidFile)) {
				fs.rmSync(folder, { recursive: true, force: true });
				continue;
			}
			Atomics.wait(pause, 0, 0, 50);
		}
	}
	return realMkdtempSync(prefix, options);
};
syncBuiltinESMExports();
