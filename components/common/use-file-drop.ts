"use client";

import * as React from "react";

/**
 * A drop zone's behaviour: `over` while files are dragged over it, and the dropped files handed
 * to `onFiles`. Spread `zoneProps` on the zone's element.
 */
export function useFileDrop(onFiles: (files: FileList) => void) {
  const [over, setOver] = React.useState(false);
  const zoneProps = {
    onDragOver: (e: React.DragEvent) => {
      e.preventDefault();
      setOver(true);
    },
    onDragLeave: () => setOver(false),
    onDrop: (e: React.DragEvent) => {
      e.preventDefault();
      setOver(false);
      onFiles(e.dataTransfer.files);
    },
  };
  return { over, zoneProps };
}
