# perfctl/programs/work.jq - the workload of perfctl/programs/jq.sh, run as
# `jq -n -c -f work.jq input.json` over perfctl/programs/gen-json.pl's
# records. Per record: string interpolation, regex test/capture/sub/gsub/scan
# (named captures: oniguruma calls back into jq for each name), try/catch
# with jq errors raised and caught, paths/getpath/leaf_paths, `..` and
# recurse over a tree and a user-defined recursive function, limit/first/
# label-break, backtracking through `,` `//` `?` and `empty`, reduce and
# foreach. Over all records: group_by, sort_by, unique_by, min_by/max_by
# (jq's sort hands its comparator to the C library's qsort), to_entries,
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

[inputs] as $all
| ($all[] | summary),
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
