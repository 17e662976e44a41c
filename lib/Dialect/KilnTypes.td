#ifndef KILN_TYPES_TD
#define KILN_TYPES_TD

include "lib/Dialect/KilnDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Kiln_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Kiln_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Kiln_ListType : Kiln_Type<"List", "list"> {
  let summary = "A Python list whose items all have one type";
  let description = [{
    A reference to a list: copying the value shares the list, as two Python
    names bound to one list do. Items are stored unboxed: `i64` (Python's
    int), `f64` (float) or `i1` (bool, one byte per item); or are
    references the list holds: `!kiln.str`, or `!kiln.object<"C">` (an
    instance of an exported class, never None).
    `kiln.retain`/`kiln.release` count the references the frontend holds;
    the list is freed when the last goes.

    ```mlir
    %xs = kiln.list.new %capacity : !kiln.list<f64>
    ```
  }];
  let parameters = (ins "::mlir::Type":$itemType);
  let assemblyFormat = "`<` $itemType `>`";
  let genVerifyDecl = 1;
}

def Kiln_DictType : Kiln_Type<"Dict", "dict"> {
  let summary = "A Python dict whose keys have one type and values one type";
  let description = [{
    A reference to a dict, shared like a list. Keys and values are Python's
    int, float or bool (`i64`, `f64`, `i1`); entries keep insertion order.
    Float keys compare as Python's `==` does (`-0.0` and `0.0` are one key;
    a NaN key is never found again).

    ```mlir
    %counts = kiln.dict.new %capacity : !kiln.dict<i64, i64>
    ```
  }];
  let parameters = (ins "::mlir::Type":$keyType, "::mlir::Type":$valueType);
  let assemblyFormat = "`<` $keyType `,` $valueType `>`";
  let genVerifyDecl = 1;
}

def Kiln_SetType : Kiln_Type<"Set", "set"> {
  let summary = "A Python set whose elements have one type";
  let description = [{
    A reference to a set, shared like a list. Elements are Python's int,
    float or bool (`i64`, `f64`, `i1`), compared as Python's `==` compares
    them (as dict keys); iteration visits them in the order they were first
    added (CPython's order follows the hashes: a documented difference).

    ```mlir
    %seen = kiln.set.new %capacity : !kiln.set<i64>
    ```
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
  let genVerifyDecl = 1;
}

def Kiln_StrType : Kiln_Type<"Str", "str"> {
  let summary = "A Python str";
  let description = [{
    A reference to an immutable string of Unicode code points
    (runtime/kiln_abi.h's `kiln_str`: one, two or four bytes per code point,
    the narrowest that holds them all, as CPython stores strings). Copying
    the value shares the string; `kiln.retain`/`kiln.release` count the
    references as for a list. A literal (`kiln.str.constant`) lives in the
    module's constant data and is never freed.

    ```mlir
    %s = kiln.str.constant "héllo"
    ```
  }];
}

def Kiln_ObjectType : Kiln_Type<"Object", "object"> {
  let summary = "An instance of an exported Python class, or None";
  let description = [{
    A reference to a CPython object of the class the extension makes for
    `@kiln.export class <name>` (runtime/kiln_abi.h: its fields sit at fixed
    offsets after the object header). The value may be None (a null
    pointer): reading a field of None raises AttributeError. Copying the
    value shares the object; `kiln.retain`/`kiln.release` count references
    in the object's own `ob_refcnt`, and the last release calls its type's
    `tp_dealloc`, so compiled code holds the GIL.

    ```mlir
    %node = kiln.object.new @mod_Node__kiln_type : !kiln.object<"Node">
    ```
  }];
  let parameters = (ins StringRefParameter<"the class's Python name">:$className);
  let assemblyFormat = "`<` $className `>`";
}

#endif // KILN_TYPES_TD
