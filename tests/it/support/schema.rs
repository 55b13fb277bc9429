//! A JSON Schema validator for the subset of draft 2020-12 that `docs/schemas/` uses:
//! `type` (one or several), `properties`, `required`, `items`, `enum`, `const`, `minimum`,
//! `additionalProperties`, `oneOf`, and `$ref` to the schema's own `$defs`; `$schema`, `title`
//! and `description` are annotations.
//!
//! Hand-written rather than the `jsonschema` crate, which brings 35 crates (proc macros
//! included) into a build that has none of them, for what a hundred lines check here. Honest
//! about its limits: a schema using any other keyword is refused ([`check_schema`]), never
//! half-checked.

use serde_json::Value;

/// The keywords this validator understands.
const KEYWORDS: [&str; 14] = [
    "$schema",
    "title",
    "description",
    "type",
    "properties",
    "required",
    "items",
    "enum",
    "const",
    "minimum",
    "additionalProperties",
    "oneOf",
    "$ref",
    "$defs",
];

/// Read a schema from `docs/schemas/NAME`.
pub fn load(name: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/schemas")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Problems with the schema itself: a keyword this validator does not know, a property
/// without a description (every field is documented), a required field not described, a
/// `$ref` to nothing.
pub fn check_schema(schema: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    walk_schema(schema, schema, "#", &mut problems);
    problems
}

fn walk_schema(root: &Value, s: &Value, at: &str, problems: &mut Vec<String>) {
    let Some(obj) = s.as_object() else {
        if !s.is_boolean() {
            problems.push(format!("{at}: a schema is an object or a boolean"));
        }
        return;
    };
    for key in obj.keys() {
        if !KEYWORDS.contains(&key.as_str()) {
            problems.push(format!(
                "{at}: keyword {key} is not supported by this validator"
            ));
        }
    }
    if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
        if resolve(root, r).is_none() {
            problems.push(format!("{at}: $ref {r} leads nowhere"));
        }
    }
    if let Some(props) = obj.get("properties").and_then(Value::as_object) {
        for (name, p) in props {
            let here = format!("{at}/properties/{name}");
            let described = p
                .get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| !d.trim().is_empty())
                || p.get("$ref").is_some();
            if !described {
                problems.push(format!("{here}: no description"));
            }
            walk_schema(root, p, &here, problems);
        }
        for r in obj
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !r.as_str().is_some_and(|r| props.contains_key(r)) {
                problems.push(format!("{at}: required {r} is not among the properties"));
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(sub) = obj.get(key) {
            walk_schema(root, sub, &format!("{at}/{key}"), problems);
        }
    }
    for (i, sub) in obj
        .get("oneOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        walk_schema(root, sub, &format!("{at}/oneOf/{i}"), problems);
    }
    if let Some(defs) = obj.get("$defs").and_then(Value::as_object) {
        for (name, d) in defs {
            walk_schema(root, d, &format!("{at}/$defs/{name}"), problems);
        }
    }
}

fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let name = reference.strip_prefix("#/$defs/")?;
    root.get("$defs")?.get(name)
}

/// Every way `instance` breaks `schema`, each with the JSON pointer of the culprit; empty when
/// it is valid.
pub fn validate(schema: &Value, instance: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    check(schema, schema, instance, "", &mut errors);
    errors
}

fn type_matches(name: &str, v: &Value) -> bool {
    match name {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        other => panic!("unknown type {other}"),
    }
}

fn check(root: &Value, s: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
    let obj = match s {
        Value::Bool(true) => return,
        Value::Bool(false) => return errors.push(format!("{at}: nothing is allowed here")),
        Value::Object(obj) => obj,
        _ => panic!("{at}: not a schema"),
    };
    if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
        let target = resolve(root, r).unwrap_or_else(|| panic!("$ref {r} leads nowhere"));
        check(root, target, v, at, errors);
    }
    if let Some(t) = obj.get("type") {
        let names: Vec<&str> = match t {
            Value::String(n) => vec![n.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => panic!("{at}: bad type"),
        };
        if !names.iter().any(|n| type_matches(n, v)) {
            errors.push(format!("{at}: {v} is not of type {names:?}"));
            return;
        }
    }
    if let Some(options) = obj.get("enum").and_then(Value::as_array) {
        if !options.contains(v) {
            errors.push(format!("{at}: {v} is not one of {options:?}"));
        }
    }
    if let Some(c) = obj.get("const") {
        if c != v {
            errors.push(format!("{at}: {v} is not {c}"));
        }
    }
    if let (Some(min), Some(n)) = (obj.get("minimum").and_then(Value::as_f64), v.as_f64()) {
        if n < min {
            errors.push(format!("{at}: {n} is below the minimum {min}"));
        }
    }
    if let Some(options) = obj.get("oneOf").and_then(Value::as_array) {
        let passing = options
            .iter()
            .filter(|o| validate_sub(root, o, v, at))
            .count();
        if passing != 1 {
            errors.push(format!(
                "{at}: {passing} of oneOf's {} schemas match, not 1",
                options.len()
            ));
        }
    }
    if let Value::Object(fields) = v {
        for r in obj
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let r = r.as_str().unwrap();
            if !fields.contains_key(r) {
                errors.push(format!("{at}: required field {r} is missing"));
            }
        }
        let props = obj.get("properties").and_then(Value::as_object);
        for (name, value) in fields {
            let here = format!("{at}/{name}");
            match props.and_then(|p| p.get(name)) {
                Some(p) => check(root, p, value, &here, errors),
                None => {
                    if let Some(extra) = obj.get("additionalProperties") {
                        check(root, extra, value, &here, errors);
                    }
                }
            }
        }
    }
    if let (Some(items), Value::Array(values)) = (obj.get("items"), v) {
        for (i, value) in values.iter().enumerate() {
            check(root, items, value, &format!("{at}/{i}"), errors);
        }
    }
}

fn validate_sub(root: &Value, s: &Value, v: &Value, at: &str) -> bool {
    let mut errors = Vec::new();
    check(root, s, v, at, &mut errors);
    errors.is_empty()
}
