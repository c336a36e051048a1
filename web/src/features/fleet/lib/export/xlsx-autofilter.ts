// Excel's filter buttons on the results sheet's header row, which write-excel-file does not
// offer itself: an <autoFilter> over the table, after the sheet's data (Excel refuses a file
// with its elements out of order), and the hidden name Excel keeps for the filter's range.
import type { Feature } from "write-excel-file/browser";
import {
  getCellAddress,
  getOrderOfSiblings,
  insertElementMarkupAccordingToOrderOfSiblings,
  sanitizeAttributeValue,
  sanitizeTextContent,
} from "write-excel-file/utility";

/** What write-excel-file's browser build takes as a file's content (it does not export the type). */
export type XlsxContent = File | Blob | ArrayBuffer;

/** The filter for the first sheet, over `rows` by `columns` cells from A1 (the header row). */
export function autoFilterFeature(
  sheetName: string,
  rows: number,
  columns: number,
): Feature<XlsxContent> {
  const last = getCellAddress(rows - 1, columns - 1);
  const range = `A1:${last}`;
  const absolute = `$A$1:$${last.replace(/(\d+)$/, "$$$1")}`;
  const quoted = `'${sheetName.replace(/'/g, "''")}'`;
  const definedName = `<definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">${sanitizeTextContent(`${quoted}!${absolute}`)}</definedName>`;
  return {
    files: {
      transform: {
        "xl/worksheets/sheet{id}.xml": {
          transform: (xml, _options, { sheetIndex }) =>
            sheetIndex === 0 && columns > 0
              ? insertElementMarkupAccordingToOrderOfSiblings(
                  xml,
                  `<autoFilter ref="${sanitizeAttributeValue(range)}"/>`,
                  getOrderOfSiblings(
                    "xl/worksheets/sheet{id}.xml",
                    "worksheet",
                  ) ?? [],
                  "worksheet",
                )
              : xml,
        },
        "xl/workbook.xml": {
          transform: (xml) => {
            if (columns === 0) return xml;
            if (xml.includes("<definedNames/>"))
              return xml.replace(
                "<definedNames/>",
                `<definedNames>${definedName}</definedNames>`,
              );
            if (xml.includes("<definedNames>"))
              return xml.replace(
                "<definedNames>",
                `<definedNames>${definedName}`,
              );
            return insertElementMarkupAccordingToOrderOfSiblings(
              xml,
              `<definedNames>${definedName}</definedNames>`,
              getOrderOfSiblings("xl/workbook.xml", "workbook") ?? [],
              "workbook",
            );
          },
        },
      },
    },
  };
}
