;; The skimming tokenizer's byte lane (see wasm-lane.ts): skimLines of tokenizer.ts over bytes,
;; in WebAssembly with 128-bit SIMD for the search of line ends, `#` and NUL. Compiled into
;; wasm-lane-module.ts by `npm run build:wasm` (scripts/build-wasm-lane.mjs); a test checks
;; that the two agree.
;;
;; Memory: the bytes at 0, records from $out0 on (the caller makes room, see wasm-lane.ts).
(module
  (memory (export "memory") 1)

  ;; Closes the run of rule lines whose header is at $hdr (none when 0), which ends at $out:
  ;; the header says how many rules follow it, and whether one's value holds `/index.htm`
  ;; ($ends: the rules' value ends, or'd together, that bit among them).
  (func $closeRules (param $hdr i32) (param $out i32) (param $ends i32)
    (if (local.get $hdr)
      (then
        (i32.store (local.get $hdr)
          (i32.or (i32.shl (i32.div_u (i32.sub (i32.sub (local.get $out) (local.get $hdr)) (i32.const 12)) (i32.const 12))
                           (i32.const 3))
                  (i32.const 7)))
        (i32.store offset=4 (local.get $hdr) (i32.shr_u (local.get $ends) (i32.const 30)))
        (i32.store offset=8 (local.get $hdr) (i32.const 0)))))

  ;; Tokenizes the lines of bytes [pos, len) (see skimLines), writing records of three
  ;; i32 at $out0: (line << 3 | tag, a, b). Tags: 0 a run of lines passed over (first line,
  ;; start, end), 1 a line for the JavaScript tokenizer (line, start, end), 2 a usual
  ;; user-agent line (line, value start | 1 << 30 if the value is not ASCII | 1 << 29 if its
  ;; product token has a capital, value end | the token's length << 18), 5 a usual sitemap
  ;; line (line, value start, value end), 7 a run of usual allow and
  ;; disallow lines (count << 3 | 7, 1 if a value holds `/index.htm` else 0, 0), followed by
  ;; one record per rule as the rule table
  ;; keeps it: (value start, value end | 1 << 30 where an allow value holds `/index.htm`,
  ;; line << 1 | 1 for allow). Returns the number of records (rules included); the last line
  ;; number is stored at $out0 - 4, the number of rules at $out0 - 8. Whitespace is absl's ascii_isspace, as in the tokenizer:
  ;; space, and \t to \r.
  (func (export "scan") (param $pos i32) (param $len i32) (param $line i32) (param $last i32)
        (param $out0 i32) (result i32)
    (local $out i32) (local $start i32) (local $end i32) (local $hash i32) (local $nul i32)
    (local $i i32) (local $c i32) (local $m i32) (local $k i32) (local $v v128)
    (local $runStart i32) (local $runEnd i32) (local $runLine i32)
    (local $lead i32) (local $final i32) (local $key i32) (local $vs i32) (local $ve i32) (local $sp i32)
    (local $rules i32) (local $ruleCount i32) (local $kw i64) (local $ruleEnds i32)
    (local $lf16 v128) (local $cr16 v128) (local $hash16 v128) (local $nul16 v128)
    (local.set $lf16 (i8x16.splat (i32.const 0x0a)))
    (local.set $cr16 (i8x16.splat (i32.const 0x0d)))
    (local.set $hash16 (i8x16.splat (i32.const 0x23)))
    (local.set $out (local.get $out0))
    (local.set $runStart (i32.const -1))
    (block $done
      (loop $lines
        (local.set $start (local.get $pos))
        (local.set $hash (local.get $len))
        (local.set $nul (local.get $len))
        (local.set $i (local.get $start))
        (local.set $end (local.get $len))
        ;; The line's end, and its first `#` and NUL: 32 bytes at a time (most lines are
        ;; shorter, so most are found in one step), then 16, then byte by byte near the end.
        (block $found
          (block $tail32
            (loop $blocks32
              (br_if $tail32 (i32.gt_u (i32.add (local.get $i) (i32.const 32)) (local.get $len)))
              (local.set $v (v128.load (local.get $i)))
              (local.set $m (i8x16.bitmask
                (v128.or
                  (v128.or
                    (i8x16.eq (local.get $v) (local.get $lf16))
                    (i8x16.eq (local.get $v) (local.get $cr16)))
                  (v128.or
                    (i8x16.eq (local.get $v) (local.get $hash16))
                    (i8x16.eq (local.get $v) (local.get $nul16))))))
              (local.set $v (v128.load offset=16 (local.get $i)))
              (local.set $m (i32.or (local.get $m) (i32.shl (i8x16.bitmask
                (v128.or
                  (v128.or
                    (i8x16.eq (local.get $v) (local.get $lf16))
                    (i8x16.eq (local.get $v) (local.get $cr16)))
                  (v128.or
                    (i8x16.eq (local.get $v) (local.get $hash16))
                    (i8x16.eq (local.get $v) (local.get $nul16))))) (i32.const 16))))
              (block $next32
                (loop $bits32
                  (br_if $next32 (i32.eqz (local.get $m)))
                  (local.set $k (i32.add (local.get $i) (i32.ctz (local.get $m))))
                  (local.set $c (i32.load8_u (local.get $k)))
                  (if (i32.or (i32.eq (local.get $c) (i32.const 0x0a)) (i32.eq (local.get $c) (i32.const 0x0d)))
                    (then (local.set $end (local.get $k)) (br $found)))
                  (if (i32.eq (local.get $c) (i32.const 0x23))
                    (then (if (i32.eq (local.get $hash) (local.get $len)) (then (local.set $hash (local.get $k)))))
                    (else (if (i32.eq (local.get $nul) (local.get $len)) (then (local.set $nul (local.get $k))))))
                  (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
                  (br $bits32)))
              (local.set $i (i32.add (local.get $i) (i32.const 32)))
              (br $blocks32)))
          (block $tail
            (loop $blocks
              (br_if $tail (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $len)))
              (local.set $v (v128.load (local.get $i)))
              (local.set $m (i8x16.bitmask
                (v128.or
                  (v128.or
                    (i8x16.eq (local.get $v) (local.get $lf16))
                    (i8x16.eq (local.get $v) (local.get $cr16)))
                  (v128.or
                    (i8x16.eq (local.get $v) (local.get $hash16))
                    (i8x16.eq (local.get $v) (local.get $nul16))))))
              (block $next
                (loop $bits
                  (br_if $next (i32.eqz (local.get $m)))
                  (local.set $k (i32.add (local.get $i) (i32.ctz (local.get $m))))
                  (local.set $c (i32.load8_u (local.get $k)))
                  (if (i32.or (i32.eq (local.get $c) (i32.const 0x0a)) (i32.eq (local.get $c) (i32.const 0x0d)))
                    (then (local.set $end (local.get $k)) (br $found)))
                  (if (i32.eq (local.get $c) (i32.const 0x23))
                    (then (if (i32.eq (local.get $hash) (local.get $len)) (then (local.set $hash (local.get $k)))))
                    (else (if (i32.eq (local.get $nul) (local.get $len)) (then (local.set $nul (local.get $k))))))
                  (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
                  (br $bits)))
              (local.set $i (i32.add (local.get $i) (i32.const 16)))
              (br $blocks)))
          (block $stop
            (loop $bytes
              (br_if $stop (i32.ge_u (local.get $i) (local.get $len)))
              (local.set $c (i32.load8_u (local.get $i)))
              (if (i32.or (i32.eq (local.get $c) (i32.const 0x0a)) (i32.eq (local.get $c) (i32.const 0x0d)))
                (then (local.set $end (local.get $i)) (br $found)))
              (if (i32.eq (local.get $c) (i32.const 0x23))
                (then (if (i32.eq (local.get $hash) (local.get $len)) (then (local.set $hash (local.get $i))))))
              (if (i32.eqz (local.get $c))
                (then (if (i32.eq (local.get $nul) (local.get $len)) (then (local.set $nul (local.get $i))))))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br $bytes)))
          (local.set $end (local.get $len)))
        (local.set $final (i32.ge_u (local.get $end) (local.get $len)))
        (if (local.get $final) (then (br_if $done (i32.eqz (local.get $last)))))
        (local.set $line (i32.add (local.get $line) (i32.const 1)))
        ;; The LF of a CRLF pair does not end a second, empty line.
        (local.set $pos (i32.add (local.get $end) (i32.const 1)))
        (if (i32.and
              (i32.lt_u (local.get $pos) (local.get $len))
              (i32.and
                (i32.eq (i32.load8_u (local.get $end)) (i32.const 0x0d))
                (i32.eq (i32.load8_u (local.get $pos)) (i32.const 0x0a))))
          (then (local.set $pos (i32.add (local.get $pos) (i32.const 1)))))
        (local.set $lead (local.get $start))
        (block $led
          (loop $spaces
            (br_if $led (i32.ge_u (local.get $lead) (local.get $end)))
            (br_if $led (i32.eqz (i32.or
              (i32.eq (local.tee $sp (i32.load8_u (local.get $lead))) (i32.const 0x20))
              (i32.lt_u (i32.sub (local.get $sp) (i32.const 9)) (i32.const 5)))))
            (local.set $lead (i32.add (local.get $lead) (i32.const 1)))
            (br $spaces)))
        (block $classified
          ;; A blank line joins a run of lines passed over.
          (if (i32.eq (local.get $lead) (local.get $end))
            (then
              (if (i32.ge_s (local.get $runStart) (i32.const 0))
                (then (local.set $runEnd (local.get $end))))
              (br $classified)))
          ;; Every key Google knows begins with u, a, d or s.
          (local.set $c (i32.or (i32.load8_u (local.get $lead)) (i32.const 0x20)))
          (if (i32.eqz (i32.or
                (i32.or (i32.eq (local.get $c) (i32.const 0x75)) (i32.eq (local.get $c) (i32.const 0x61)))
                (i32.or (i32.eq (local.get $c) (i32.const 0x64)) (i32.eq (local.get $c) (i32.const 0x73)))))
            (then
              (if (i32.lt_s (local.get $runStart) (i32.const 0))
                (then (local.set $runStart (local.get $start)) (local.set $runLine (local.get $line))))
              (local.set $runEnd (local.get $end))
              (br $classified)))
          (if (i32.ge_s (local.get $runStart) (i32.const 0))
            (then
              (call $closeRules (local.get $rules) (local.get $out) (local.get $ruleEnds))
              (local.set $rules (i32.const 0))
              (i32.store (local.get $out) (i32.shl (local.get $runLine) (i32.const 3)))
              (i32.store offset=4 (local.get $out) (local.get $runStart))
              (i32.store offset=8 (local.get $out) (local.get $runEnd))
              (local.set $out (i32.add (local.get $out) (i32.const 12)))
              (local.set $runStart (i32.const -1))))
          ;; A usual directive: short enough never to be cut, no NUL, a known key spelled out.
          (if (i32.and
                (i32.le_u (i32.sub (local.get $end) (local.get $start)) (i32.const 5554))
                (i32.ge_u (local.get $nul) (local.get $end)))
            (then
              ;; The known key spelled out at $lead, its colon right after it and before
              ;; $end: (length << 3 | tag), or 0. Bytes are compared eight at a time,
              ;; lower-cased by setting bit 0x20 (which maps no byte that can stand inside a
              ;; line onto a letter or `-` but the letter's capital: only CR becomes `-`, and
              ;; CR ends a line). $c is the first byte so lower-cased.
              (local.set $key (block $keyed (result i32)
                (local.set $kw (i64.load (local.get $lead)))
                (if (i32.eq (local.get $c) (i32.const 0x64))
                  (then
                    (br $keyed (select (i32.const 0x44) (i32.const 0)
                      (i32.and (i32.lt_u (i32.add (local.get $lead) (i32.const 8)) (local.get $end))
                        (i32.and
                          (i64.eq (i64.or (local.get $kw) (i64.const 0x2020202020202020)) (i64.const 0x776f6c6c61736964))
                          (i32.eq (i32.load8_u offset=8 (local.get $lead)) (i32.const 0x3a))))))))
                (if (i32.eq (local.get $c) (i32.const 0x61))
                  (then
                    (br $keyed (select (i32.const 0x2b) (i32.const 0)
                      (i32.and (i32.lt_u (i32.add (local.get $lead) (i32.const 5)) (local.get $end))
                        (i64.eq (i64.or (i64.and (local.get $kw) (i64.const 0xffffffffffff)) (i64.const 0x2020202020))
                          (i64.const 0x3a776f6c6c61)))))))
                (if (i32.eq (local.get $c) (i32.const 0x75))
                  (then
                    (br $keyed (select (i32.const 0x52) (i32.const 0)
                      (i32.and (i32.lt_u (i32.add (local.get $lead) (i32.const 10)) (local.get $end))
                        (i32.and
                          (i64.eq (i64.or (local.get $kw) (i64.const 0x2020202020202020)) (i64.const 0x6567612d72657375))
                          (i32.eq (i32.or (i32.and (i32.load offset=8 (local.get $lead)) (i32.const 0xffffff)) (i32.const 0x2020))
                            (i32.const 0x3a746e))))))))
                (if (i32.eq (local.get $c) (i32.const 0x73))
                  (then
                    (br $keyed (select (i32.const 0x3d) (i32.const 0)
                      (i32.and (i32.lt_u (i32.add (local.get $lead) (i32.const 7)) (local.get $end))
                        (i64.eq (i64.or (local.get $kw) (i64.const 0x0020202020202020)) (i64.const 0x3a70616d65746973)))))))
                (i32.const 0)))
              (if (local.get $key)
                (then
                  (local.set $ve (select (local.get $hash) (local.get $end)
                    (i32.lt_u (local.get $hash) (local.get $end))))
                  (local.set $vs (i32.add (i32.add (local.get $lead) (i32.shr_u (local.get $key) (i32.const 3))) (i32.const 1)))
                  (block $trimmed
                    (loop $front
                      (br_if $trimmed (i32.ge_u (local.get $vs) (local.get $ve)))
                      (br_if $trimmed (i32.eqz (i32.or
                        (i32.eq (local.tee $sp (i32.load8_u (local.get $vs))) (i32.const 0x20))
                        (i32.lt_u (i32.sub (local.get $sp) (i32.const 9)) (i32.const 5)))))
                      (local.set $vs (i32.add (local.get $vs) (i32.const 1)))
                      (br $front)))
                  (block $trimmed2
                    (loop $back
                      (br_if $trimmed2 (i32.le_u (local.get $ve) (local.get $vs)))
                      (br_if $trimmed2 (i32.eqz (i32.or
                        (i32.eq (local.tee $sp (i32.load8_u (i32.sub (local.get $ve) (i32.const 1)))) (i32.const 0x20))
                        (i32.lt_u (i32.sub (local.get $sp) (i32.const 9)) (i32.const 5)))))
                      (local.set $ve (i32.sub (local.get $ve) (i32.const 1)))
                      (br $back)))
                  ;; An allow value holding `/index.htm` may have Google's index.html alias: tag 6.
                  (if (i32.eq (i32.and (local.get $key) (i32.const 7)) (i32.const 3))
                    (then
                      (local.set $i (local.get $vs))
                      (block $plain
                        (loop $slash
                          (br_if $plain (i32.gt_u (i32.add (local.get $i) (i32.const 10)) (local.get $ve)))
                          (if (i32.and
                                (i32.eq (i32.load8_u (local.get $i)) (i32.const 0x2f))
                                (i32.and
                                  (i64.eq (i64.load offset=1 (local.get $i)) (i64.const 0x74682e7865646e69))
                                  (i32.eq (i32.load8_u offset=9 (local.get $i)) (i32.const 0x6d))))
                            (then (local.set $key (i32.const 6)) (br $plain)))
                          (local.set $i (i32.add (local.get $i) (i32.const 1)))
                          (br $slash)))))
                  (local.set $key (i32.and (local.get $key) (i32.const 7)))
                  ;; Allow (3 and 6) and disallow (4): a record in the rule table's form, in
                  ;; the run of rules open (opened here if none is).
                  (if (i32.and (i32.ge_u (local.get $key) (i32.const 3)) (i32.ne (local.get $key) (i32.const 5)))
                    (then
                      (if (i32.eqz (local.get $rules))
                        (then
                          (local.set $rules (local.get $out))
                          (local.set $ruleEnds (i32.const 0))
                          (local.set $out (i32.add (local.get $out) (i32.const 12)))))
                      (i32.store (local.get $out) (local.get $vs))
                      (local.set $ve
                        (i32.or (local.get $ve) (i32.shl (i32.eq (local.get $key) (i32.const 6)) (i32.const 30))))
                      (local.set $ruleEnds (i32.or (local.get $ruleEnds) (local.get $ve)))
                      (i32.store offset=4 (local.get $out) (local.get $ve))
                      (i32.store offset=8 (local.get $out)
                        (i32.or (i32.shl (local.get $line) (i32.const 1)) (i32.ne (local.get $key) (i32.const 4))))
                      (local.set $out (i32.add (local.get $out) (i32.const 12)))
                      (local.set $ruleCount (i32.add (local.get $ruleCount) (i32.const 1)))
                      (br $classified)))
                  (call $closeRules (local.get $rules) (local.get $out) (local.get $ruleEnds))
                  (local.set $rules (i32.const 0))
                  ;; A user-agent value: where its product token (its leading run of letters, `-`
                  ;; and `_`) ends, whether the token has a capital, whether the value is ASCII.
                  (if (i32.eq (local.get $key) (i32.const 2))
                    (then
                      (local.set $i (local.get $vs))
                      (local.set $sp (i32.const 0))
                      (block $token
                        (loop $letters
                          (br_if $token (i32.ge_u (local.get $i) (local.get $ve)))
                          (local.set $c (i32.load8_u (local.get $i)))
                          (br_if $token (i32.eqz (i32.or
                            (i32.lt_u (i32.sub (i32.or (local.get $c) (i32.const 0x20)) (i32.const 0x61)) (i32.const 26))
                            (i32.or (i32.eq (local.get $c) (i32.const 0x2d)) (i32.eq (local.get $c) (i32.const 0x5f))))))
                          (local.set $sp (i32.or (local.get $sp)
                            (i32.lt_u (i32.sub (local.get $c) (i32.const 0x41)) (i32.const 26))))
                          (local.set $i (i32.add (local.get $i) (i32.const 1)))
                          (br $letters)))
                      (local.set $k (local.get $i))
                      (local.set $m (i32.const 0))
                      (block $read
                        (loop $rest
                          (br_if $read (i32.ge_u (local.get $k) (local.get $ve)))
                          (local.set $m (i32.or (local.get $m) (i32.load8_u (local.get $k))))
                          (local.set $k (i32.add (local.get $k) (i32.const 1)))
                          (br $rest)))
                      (local.set $ve (i32.or (local.get $ve) (i32.shl (i32.sub (local.get $i) (local.get $vs)) (i32.const 18))))
                      (local.set $vs (i32.or (local.get $vs) (i32.or
                        (i32.shl (i32.shr_u (local.get $m) (i32.const 7)) (i32.const 30))
                        (i32.shl (local.get $sp) (i32.const 29)))))))
                  (i32.store (local.get $out) (i32.or (i32.shl (local.get $line) (i32.const 3)) (local.get $key)))
                  (i32.store offset=4 (local.get $out) (local.get $vs))
                  (i32.store offset=8 (local.get $out) (local.get $ve))
                  (local.set $out (i32.add (local.get $out) (i32.const 12)))
                  (br $classified)))))
          (call $closeRules (local.get $rules) (local.get $out) (local.get $ruleEnds))
          (local.set $rules (i32.const 0))
          (i32.store (local.get $out) (i32.or (i32.shl (local.get $line) (i32.const 3)) (i32.const 1)))
          (i32.store offset=4 (local.get $out) (local.get $start))
          (i32.store offset=8 (local.get $out) (local.get $end))
          (local.set $out (i32.add (local.get $out) (i32.const 12))))
        (br_if $done (local.get $final))
        (br $lines)))
    (call $closeRules (local.get $rules) (local.get $out) (local.get $ruleEnds))
    (if (i32.ge_s (local.get $runStart) (i32.const 0))
      (then
        (i32.store (local.get $out) (i32.shl (local.get $runLine) (i32.const 3)))
        (i32.store offset=4 (local.get $out) (local.get $runStart))
        (i32.store offset=8 (local.get $out) (local.get $runEnd))
        (local.set $out (i32.add (local.get $out) (i32.const 12)))))
    (i32.store (i32.sub (local.get $out0) (i32.const 4)) (local.get $line))
    (i32.store (i32.sub (local.get $out0) (i32.const 8)) (local.get $ruleCount))
    (i32.div_u (i32.sub (local.get $out) (local.get $out0)) (i32.const 12)))
)
