/**
 * The parameter names of a path-to-regexp v9 pattern, read by the compiler from the pattern's
 * literal type: `:id` is required, a parameter inside `{…}` is optional, `*rest` is a wildcard;
 * `:"quoted name"` and `\` escapes are understood. One pass over the characters, no recursion over
 * other routes: the cost of a route is the length of its pattern.
 */
export interface PathParameterNames {
  /** `:name` outside any optional group. */
  readonly required: string;
  /** Any parameter inside an optional group. */
  readonly optional: string;
  /** `*name`, wherever it is. */
  readonly wildcard: string;
}

/** The parameters of a pattern; a pattern that is not a literal gives every name as optional. */
export type PathParameters<P extends string> = string extends P
  ? Names<never, string, never>
  : P extends `${string}${':' | '*'}${string}`
    ? P extends `${string}${'{' | '}' | '*' | '\\' | '"'}${string}`
      ? Scan<P, [], never, never, never>
      : Names<RequiredNames<P, never>, never, never>
    : Names<never, never, never>;

/**
 * The names of a pattern with `:name` parameters only (no group, wildcard, quote or escape), the
 * common case: found a parameter at a time rather than a character at a time.
 */
type RequiredNames<S extends string, Found extends string> = S extends `${string}:${infer Rest}`
  ? ReadSegmentName<Rest> extends [infer Name extends string, infer After extends string]
    ? RequiredNames<After, Found | Name>
    : never
  : Found;

/** `[name, rest]` at a name's first character: a whole segment when it holds nothing but the name. */
type ReadSegmentName<S extends string> = S extends `${infer Segment}/${infer After}`
  ? Segment extends `${string}${NameEnd}${string}`
    ? ReadBareName<S, ''>
    : [Segment, `/${After}`]
  : S extends `${string}${NameEnd}${string}`
    ? ReadBareName<S, ''>
    : [S, ''];

/**
 * The result, through an alias of its own: a type literal written inside the conditional types
 * would be taken by the checker for possibly generic, and with it every route map holding it.
 */
type Names<Required extends string, Optional extends string, Wildcard extends string> = {
  readonly required: Required;
  readonly optional: Optional;
  readonly wildcard: Wildcard;
};

/** Characters that end a parameter name (path-to-regexp names are identifier characters). */
type NameEnd =
  | '/'
  | '.'
  | '-'
  | ':'
  | '*'
  | '{'
  | '}'
  | '('
  | ')'
  | '['
  | ']'
  | '?'
  | '+'
  | '!'
  | '@'
  | ','
  | ';'
  | '='
  | '~'
  | '|'
  | '&'
  | '#'
  | '%'
  | ' '
  | '\\'
  | "'"
  | '"'
  | '<'
  | '>'
  | '^'
  | '`';

/** `[name, rest of the pattern]` at a parameter's first character. */
type ReadName<S extends string> = S extends `"${infer Quoted}"${infer Rest}` ? [Quoted, Rest] : ReadBareName<S, ''>;

type ReadBareName<S extends string, Name extends string> = S extends `${infer C}${infer Rest}`
  ? C extends NameEnd
    ? [Name, S]
    : ReadBareName<Rest, `${Name}${C}`>
  : [Name, ''];

/** `Depth` counts the open optional groups (its length); the three unions collect the names. */
type Scan<
  S extends string,
  Depth extends unknown[],
  Required extends string,
  Optional extends string,
  Wildcard extends string,
> = S extends `${infer C}${infer Rest}`
  ? C extends '\\'
    ? Rest extends `${infer _Escaped}${infer After}`
      ? Scan<After, Depth, Required, Optional, Wildcard>
      : Scan<'', Depth, Required, Optional, Wildcard>
    : C extends '{'
      ? Scan<Rest, [...Depth, 0], Required, Optional, Wildcard>
      : C extends '}'
        ? Scan<Rest, Depth extends [unknown, ...infer Outer] ? Outer : [], Required, Optional, Wildcard>
        : C extends ':'
          ? ReadName<Rest> extends [infer Name extends string, infer After extends string]
            ? Depth extends []
              ? Scan<After, Depth, Required | Name, Optional, Wildcard>
              : Scan<After, Depth, Required, Optional | Name, Wildcard>
            : never
          : C extends '*'
            ? ReadName<Rest> extends [infer Name extends string, infer After extends string]
              ? Depth extends []
                ? Scan<After, Depth, Required | Name, Optional, Wildcard | Name>
                : Scan<After, Depth, Required, Optional | Name, Wildcard | Name>
              : never
            : Scan<Rest, Depth, Required, Optional, Wildcard>
  : Names<Required, Optional, Wildcard>;
