# perfctl/programs/work.jq - the workload of perfctl/programs/jq.sh, run as
# `jq -n -c -S -f work.jq --argjson onig true input.json` over
# perfctl/programs/gen-json.pl's records (-S: every object's keys sorted by
# the C library's qsort calling jq's comparator). Per record: string
# interpolation, regex test/capture/sub/gsub/scan/match/splits (named
# captures: oniguruma calls back into jq for each name), try/catch with jq
# errors raised and caught, paths/getpath/leaf_paths, `..` and recurse over
# a tree and a user-defined recursive function, limit/first/label-break,
# backtracking through `,` `//` `?` and `empty`, reduce and foreach; every
# third record more builtins (extras below). Over all records: group_by,
# sort_by, unique_by, min_by/max_by (qsort again), to_entries,
# with_entries, del and path expressions.

# $onig (--argjson onig true|false): whether jq was built with oniguruma.
# Without it (perfctl/programs/jq.sh could not install libonig-dev) every
# regex builtin raises an error; these wrappers then answer a constant,
# so the workload still runs, regex-free.
def rtest(re): if $onig then test(re) else false end;
def rcapture(re): if $onig then capture(re) else {} end;
def rsub(re; s): if $onig then sub(re; s) else . end;
def rgsub(re; s): if $onig then gsub(re; s) else . end;
def rscan(re): if $onig then scan(re) else empty end;
def rsplits(re): if $onig then splits(re) else . end;
def rmatch(re; fl): if $onig then match(re; fl) else empty end;

# score: a number, or an error jq raises and the caller catches
def score_of:
  if (.score | type) == "number" then .score
  elif (.score | type) == "string" then (.score | tonumber)
  elif has("score") then error({why: "null score", id})
  else error("no score in \(.id)")
  end;

# depth of a tree, recursively
def depth: if (.children | length) == 0 then 1 else 1 + ([.children[] | depth] | max) end;

# every label on the way down, and the sum of the weights
def labels: .label, (.children[] | labels);

def classify_mail:
  if rtest("^[a-z]+\\.[a-z]+@[a-z]+\\.(com|org|net)$") then "ok"
  elif rtest("^[A-Z._@]+$") then "upper"
  elif rtest(" at ") then "spelled"
  else "odd"
  end;

def summary:
  . as $r
  | (try score_of catch (if type == "object" then "E:\(.why)#\(.id)" else "E:\(.)" end)) as $score
  | ($r.email | classify_mail) as $mail
  | ($r.name | rcapture("(?<first>[A-Z][a-z]+) (?<last>[A-Z][a-z]+)")) as $n
  | {
      id: $r.id,
      who: "\($n.last), \($n.first | .[0:1])." ,
      mail: $mail,
      user: ($r.email | rsub("(?<u>[^@ ]+)(@| at ).*"; "\(.u)") | rgsub("[._]"; "-")),
      score: $score,
      tags: ([$r.tags[] | select(length > 3) | (., ascii_upcase)] | unique | join(",")),
      vowels: ([$r.name | rscan("[aeiou]")] | length),
      first_err: (first($r.events[] | select(.kind == "error") | .t) // null),
      top3: [limit(3; $r.events[] | select(.v != null) | .kind)],
      kinds: (reduce $r.events[] as $e ({}; .[$e.kind] += 1)),
      running: [foreach $r.events[] as $e (0; . + $e.t; if . % 2 == 0 then . else empty end)],
      nums: ([$r.attrs | .. | numbers] | add // 0),
      strs: [$r.attrs | .. | strings | select(rtest("\\\\|\"|\n|\t")) | length],
      npaths: ([$r | paths] | length),
      numpaths: [$r.attrs | paths(type == "number") | map(tostring) | join("/")],
      leaves: ([$r | leaf_paths] | length),
      tree: (if $r.tree then
               {depth: ($r.tree | depth),
                nodes: ([$r.tree | recurse(.children[])] | length),
                w: ([$r.tree | .. | objects | .w] | add),
                labels: [limit(4; $r.tree | labels | select(rtest("^[a-z]+$")))],
                found: (label $out | ($r.tree | recurse(.children[]) | select(.label | rtest("^[A-Z]")) | .label, break $out) // "none")}
             else "none" end),
      flag: ($r.flag // "unset"),
      odd: (try ($r.attrs | keys | length) catch "not an object")
    }
  # records whose attrs is an object get a second line: its keys, one of
  # them raising an error that ends the array early (try without catch)
  | ., ($r.attrs | objects | {id: $r.id, keys: [try (keys[] | if rtest("^(pi|mu)") then error("stop") else . end)]});

# every third record: more builtins (streaming, walk, formats, parsing
# back what tojson wrote, explode/implode, time from fixed numbers in UTC,
# setpath/delpaths, until/while/repeat, nested try)
def extras:
  . as $r
  | {
      id,
      stream: ([$r.attrs | tostream] | length),
      back: (fromstream($r.attrs | tostream) == $r.attrs),
      walked: ($r.attrs | walk(if type == "number" then . * 2 elif type == "string" then ascii_downcase else . end) | tojson),
      json: ($r | tojson | fromjson | .events | length),
      b64: ($r.name | @base64 | [., @base64d]),
      formats: [[$r.id, $r.name, $r.score, $r.flag] | @csv, @tsv, @sh, @html, @uri, @text, @json],
      codes: ($r.name | explode | map(if . >= 97 and . < 122 then . + 1 else . end) | implode),
      idx: ($r.name | indices("a")),
      has: ($r.tags | index("xi")),
      inside: (["pi"] | inside($r.tags)),
      contains: ($r | contains({tags: ["mu"]})),
      trim: ($r.email | ltrimstr($r.name | split(" ")[0] | ascii_downcase) | rtrimstr(".com")),
      splits: [$r.email | rsplits("[.@ ]")],
      offsets: [$r.name | rmatch("[A-Z](?<rest>[a-z]*)"; "g") | .offset, .captures[0].length],
      comb: ([[1, 2], [$r.id % 3, 5, 6]] | [combinations] | length),
      date: (($r.events[0].t // 0) + $r.id * 86400 | todate),
      back_to_s: (($r.events[0].t // 0) | gmtime | mktime),
      day: ($r.id * 86400 | strftime("%Y-%m-%d %A %j")),
      roots: ([$r.events[].t] | map(sqrt | floor) | add),
      numstr: [$r.attrs | .. | numbers | tostring],
      setp: (try ($r | setpath(["attrs", "x"]; 1) | .attrs | keys) catch "attrs not an object"),
      delp: ($r | delpaths([["tags"], ["events"], ["tree", "children"]]) | keys),
      until: ($r.id | until(. > 1000; . * 3)),
      while: [$r.id | limit(5; while(. > 1; . / 2 | floor))],
      repeat: [limit(3; $r.id | repeat(. * 2))],
      range: [range(0; $r.id % 7; 2)],
      opt: [$r.attrs | .[]?],
      errnull: [try error(null) catch "null error"],   # jq 1.6: a null error backtracks, catch never runs
      nested: (try (try error("in") catch error("out: " + .)) catch .),
      any: ($r.tags | any(. == "pi")),
      all: ($r.events | all(.t > 100)),
      flat: ([$r.attrs] | flatten | length),
      earliest: ($r.events | min_by(.t) | .kind?),
      tojson_num: ([$r.events[].v | numbers] | tojson)
    };

[inputs] as $all
| ($all[] | summary),
  ($all[] | select(.id % 3 == 0) | extras),
  ($all | group_by(.events | length) | map({n: (.[0].events | length), count: length, ids: [limit(5; .[].id)]})),
  ($all | map(select(.score | type == "number")) | sort_by(.score, .id) | [first(.[]).id, last.id, (.[length / 2 | floor].score)]),
  ($all | map(.tags[]) | group_by(.) | map({key: .[0], value: length}) | sort_by(-.value, .key) | .[0:8] | from_entries),
  ($all | unique_by(.name | ascii_downcase | .[0:3]) | length),
  ($all | [min_by(.events | length).id, max_by(.tags | length).id]),
  ($all | map(.events[]) | group_by(.kind) | map({kind: .[0].kind, n: length, t: (map(.t) | add),
      v: (map(.v | numbers) | if length > 0 then (add / length | floor) else null end)})),
  ($all | map(.email | ascii_downcase | split("@") | .[1] // "-" | split(".") | .[-1]) | group_by(.) | map([.[0], length])),
  ($all[0:50] | map(del(.. | nulls?) | with_entries(select(.key | rtest("^(id|score|flag)$")))) | map(to_entries | map("\(.key)=\(.value)") | join("&"))),
  ($all | [paths(type == "boolean")] | length),
  ($all | reduce (.[] | .tree // empty | .. | objects | .label) as $l ({}; .[$l | rsub("[^a-zA-Z].*"; "") | ascii_downcase] += 1) | to_entries | sort_by(.key) | map("\(.key):\(.value)") | join(" ")),
  ([$all[] | try error({id}) catch .id] | add),
  ([$all[] | .id | (if . % 3 == 0 then empty else . end), (if . % 5 == 0 then -. else empty end)] | add)
