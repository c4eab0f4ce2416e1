import json, sys
def dump(o): return json.dumps(o, separators=(',',':'), ensure_ascii=False)
T0 = 1764633600000
n = [0]
def ts():
    n[0] += 1
    ms = T0 + n[0]*1000
    import datetime
    return datetime.datetime.utcfromtimestamp(ms/1000).strftime('%Y-%m-%dT%H:%M:%S.000Z'), ms
M = dict(api="anthropic-messages", provider="anthropic", model="claude-sonnet-4-5")
U = dict(input=10,output=5,cacheRead=0,cacheWrite=0,totalTokens=15,cost=dict(input=0,output=0,cacheRead=0,cacheWrite=0,total=0))
class S:
    def __init__(s, sid):
        s.lines=[]; iso,_=ts()
        s.lines.append(dict(type="session",version=3,id=sid,timestamp=iso,cwd="/home/dev/project"))
        s.last=None
    def add(s, id, typ, parent="LAST", **kw):
        iso,ms = ts()
        p = s.last if parent=="LAST" else parent
        e = dict(type=typ,id=id,parentId=p,timestamp=iso); e.update(kw)
        if typ=="message": e["message"]["timestamp"]=ms
        s.lines.append(e); s.last=id; return id
    def user(s,id,text,**k): return s.add(id,"message",message=dict(role="user",content=[dict(type="text",text=text)]),**k)
    def asst(s,id,blocks,stop="stop",**k):
        m=dict(role="assistant",content=blocks); m.update(M); m.update(usage=U,stopReason=stop)
        return s.add(id,"message",message=m,**k)
    def call(s,id,cid,name,args,stop="toolUse",**k): return s.asst(id,[dict(type="text",text="Let me run "+name+"."),dict(type="toolCall",id=cid,name=name,arguments=args)],stop=stop,**k)
    def result(s,id,cid,name,text,**k): return s.add(id,"message",message=dict(role="toolResult",toolCallId=cid,toolName=name,content=[dict(type="text",text=text)],isError=False),**k)
    def write(s,f):
        open(f,"w").write("".join(dump(l)+"\n" for l in s.lines))
def base(sid):
    s=S(sid)
    s.user("u0000001","List the files, then read main.go.")
    s.call("a0000002","toolu_ls_01","ls",dict(path="."))
    s.result("r0000003","toolu_ls_01","ls","go.mod\nmain.go")
    s.call("a0000004","toolu_read_02","read",dict(path="main.go"))
    s.result("r0000005","toolu_read_02","read","package main\n\nfunc main() {}")
    s.asst("a0000006",[dict(type="text",text="main.go holds an empty main.")])
    s.user("u0000007","Thanks. Anything else?")
    s.asst("a0000008",[dict(type="text",text="No, that is all.")])
    return s
def compaction(s, hook):
    kw=dict(summary="The user asked to list files and read main.go.",firstKeptEntryId="r0000005",tokensBefore=1234)
    if hook: kw["fromHook"]=True
    else: kw["details"]=dict(readFiles=["main.go"],modifiedFiles=[])
    s.add("c0000009","compaction",**kw)
    s.user("u0000010","Go on.")
    s.asst("a0000011",[dict(type="text",text="Going on.")])
s=base("11111111-0000-7000-8000-000000000001"); compaction(s,False); s.write("compaction-kept-result.jsonl")
s=base("11111111-0000-7000-8000-000000000002"); compaction(s,True); s.write("hook-compaction-kept-result.jsonl")
s=base("11111111-0000-7000-8000-000000000003"); s.add("e0000009","context_edit",targetId="a0000004",replacement=None); s.user("u0000010","Go on."); s.write("edit-dropped-call.jsonl")
s=base("11111111-0000-7000-8000-000000000004"); s.add("e0000009","context_edit",targetId="a0000004",replacement=dict(content=[dict(type="text",text="[edited] I read main.go.")])); s.user("u0000010","Go on."); s.write("edit-replaced-call.jsonl")
# (d) answered twice
s=S("11111111-0000-7000-8000-000000000005")
s.user("u0000001","Read main.go.")
s.call("a0000002","toolu_read_02","read",dict(path="main.go"))
s.result("r0000003","toolu_read_02","read","package main")
s.result("r0000004","toolu_read_02","read","package main\n\nfunc main() {}")
s.asst("a0000005",[dict(type="text",text="main.go holds an empty main.")])
s.write("answered-twice.jsonl")
# (e) off the active branch
s=base("11111111-0000-7000-8000-000000000006")
s.add("e0000009","context_edit",targetId="a0000004",replacement=None)
s.user("u0000010","Go on.")
s.user("u0000011","Something else.",parent="a0000008")
s.asst("a0000012",[dict(type="text",text="Sure.")])
s.write("off-active-branch.jsonl")
# (f) failed turn: an aborted assistant whose call got a result
s=S("11111111-0000-7000-8000-000000000007")
s.user("u0000001","Read main.go.")
s.call("a0000002","toolu_read_02","read",dict(path="main.go"),stop="aborted")
s.result("r0000003","toolu_read_02","read","package main")
s.user("u0000004","Again, please.")
s.write("aborted-call-answered.jsonl")
# (g) result after a later user message
s=S("11111111-0000-7000-8000-000000000008")
s.user("u0000001","Read main.go.")
s.call("a0000002","toolu_read_02","read",dict(path="main.go"))
s.user("u0000003","Hurry up.")
s.result("r0000004","toolu_read_02","read","package main")
s.asst("a0000005",[dict(type="text",text="Done.")])
s.write("result-after-user.jsonl")
# clean control
s=base("11111111-0000-7000-8000-000000000009"); s.write("valid.jsonl")
# (h) result written before its call
s=S("11111111-0000-7000-8000-000000000010")
s.user("u0000001","Read main.go.")
s.result("r0000002","toolu_read_02","read","package main")
s.call("a0000003","toolu_read_02","read",dict(path="main.go"))
s.asst("a0000004",[dict(type="text",text="Done.")])
s.write("result-before-call.jsonl")
# (i) an excluded bashExecution between a call and its result: valid, but Pi's
# cut point rule takes the bashExecution as a cut, which keeps the result and
# summarises its call
s=S("11111111-0000-7000-8000-000000000011")
s.user("u0000001","Read main.go.")
s.call("a0000002","toolu_read_02","read",dict(path="main.go"))
s.add("b0000003","message",message=dict(role="bashExecution",command="cat big.log",output="log line\n"*600,exitCode=0,cancelled=False,truncated=False,excludeFromContext=True))
s.result("r0000004","toolu_read_02","read","package main")
s.asst("a0000005",[dict(type="text",text="main.go is tiny.")])
s.user("u0000006","Thanks.")
s.asst("a0000007",[dict(type="text",text="You are welcome.")])
s.write("excluded-bash-before-result.jsonl")
