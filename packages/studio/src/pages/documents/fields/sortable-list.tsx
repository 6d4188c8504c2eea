import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import {
  rectSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { HTMLAttributes, ReactNode } from 'react';
import './sortable-list.css';

/** What an item's drag handle spreads onto its button: dnd-kit's pointer and keyboard listeners and its ARIA attributes. */
export type HandleProps = HTMLAttributes<HTMLElement> & { ref(el: HTMLElement | null): void };

type ItemAttributes = HTMLAttributes<HTMLLIElement> & Record<`data-${string}`, string | undefined>;

interface SortableListProps<T> {
  items: readonly T[];
  /** A stable, unique id per item, so focus and state follow an item as it moves. */
  idOf(item: T, i: number): string;
  /** What announcements call the item ("Picked up Hero 2."). */
  titleOf(item: T, i: number): string;
  onMove(from: number, to: number): void;
  /** The list's accessible name. */
  label: string;
  /** `column`: one item a row (blocks); `wrap`: items side by side, wrapping (chips). */
  layout: 'column' | 'wrap';
  className?: string;
  disabled?: boolean;
  /** The `<li>`'s own attributes (its name, class, data). */
  itemProps?(item: T, i: number): ItemAttributes;
  /** The item's content, given what its handle spreads. */
  children(item: T, i: number, handle: HandleProps): ReactNode;
}

const INSTRUCTIONS =
  'To reorder, press space or enter to pick the item up, the arrow keys to move it, space or enter to drop it, or escape to cancel.';

/**
 * A list reordered by dragging each item's handle, with the pointer or the keyboard (space,
 * arrows, space), through dnd-kit's sortable preset; a live region says what happens, naming
 * the item by its title (WAI-ARIA APG, "Drag and drop" guidance as dnd-kit implements it).
 * Used by blocks and by arrays of references; dnd-kit loads with the form's chunk only.
 */
export function SortableList<T>(p: SortableListProps<T>) {
  const ids = p.items.map((item, i) => p.idOf(item, i));
  const sensors = useSensors(
    // A few pixels before a drag starts, so a click on the handle is not a drag.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const index = (id: UniqueIdentifier) => ids.indexOf(String(id));
  const title = (id: UniqueIdentifier) => {
    const i = index(id);
    return i < 0 ? 'Item' : p.titleOf(p.items[i], i);
  };
  const position = (id: UniqueIdentifier | undefined) => (id === undefined ? '' : `position ${index(id) + 1} of ${ids.length}`);
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${title(active.id)}, at ${position(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over ? `${title(active.id)} is over ${position(over.id)}.` : `${title(active.id)} is not over the list.`,
    onDragEnd: ({ active, over }) =>
      over ? `${title(active.id)} was dropped at ${position(over.id)}.` : `${title(active.id)} was dropped where it was.`,
    onDragCancel: ({ active }) => `Moving ${title(active.id)} was cancelled; it is back at ${position(active.id)}.`,
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const [from, to] = [index(active.id), index(over.id)];
    if (from >= 0 && to >= 0) p.onMove(from, to);
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: INSTRUCTIONS } }}
    >
      <SortableContext items={ids} strategy={p.layout === 'wrap' ? rectSortingStrategy : verticalListSortingStrategy} disabled={p.disabled}>
        <ol className={['sortable-list', `sortable-${p.layout}`, p.className].filter(Boolean).join(' ')} aria-label={p.label}>
          {p.items.map((item, i) => (
            <SortableItem key={ids[i]} id={ids[i]} attributes={p.itemProps?.(item, i)}>
              {(handle) => p.children(item, i, handle)}
            </SortableItem>
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function SortableItem({
  id,
  attributes: own,
  children,
}: {
  id: string;
  attributes?: ItemAttributes;
  children(handle: HandleProps): ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  const className = [own?.className, 'sortable-item', isDragging ? 'dragging' : ''].filter(Boolean).join(' ');
  // Translate only: items of different sizes (chips) are not stretched into each other's shape.
  const style = { transform: CSS.Translate.toString(transform), transition };
  return (
    <li {...own} ref={setNodeRef} className={className} style={style}>
      {children({ ref: setActivatorNodeRef, ...attributes, ...listeners })}
    </li>
  );
}

/** The grip a sortable item is dragged by: a button named for the item ("Reorder Hero 2"). */
export function DragHandle({ handle, label, disabled }: { handle: HandleProps; label: string; disabled?: boolean }) {
  return (
    <button type="button" className="drag-handle" {...handle} aria-label={label} disabled={disabled}>
      <span aria-hidden="true">⠿</span>
    </button>
  );
}
